// Names and titles are one line of visible text (issue 18, item 8): control and format characters
// (NUL, ESC, CR/LF, bidirectional overrides, zero-width spaces) are stripped on every way in, over
// both transports; spaces, letters in any script and the joiners words and emoji need are kept.
// The same rule covers the extended profile (the bio keeps its line breaks) and lone UTF-16
// surrogates, and an email with an invisible character is refused (issue 30, item 6).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSummary, ImportData } from '../../shared/contract';
import { isValidEmail, multiLine, singleLine } from '../../shared/validation';
import { createTestCore, openTransport, signUpAndLogin, type TestCore, type TestUser, type Transport } from '../helpers/core';

interface Env<T> {
  success: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
}

const HOSTILE = 'Pet\u0000\u001b[31mstore\r\nAdmin\u202egnp.exe\u200b\u2066\ufeff';
const CLEAN = 'Pet[31mstore Admingnp.exe';

describe('singleLine', () => {
  it('strips Cc and Cf, turns line breaks into a space, keeps scripts and needed joiners', () => {
    expect(singleLine(HOSTILE)).toBe(CLEAN);
    expect(singleLine('tab\there')).toBe('tab here');
    expect(singleLine('ad\u200bmin')).toBe('admin');
    expect(singleLine('Zürich 東京  Ελλάδα')).toBe('Zürich 東京  Ελλάδα');
    expect(singleLine('می\u200cخواهم')).toBe('می\u200cخواهم');
    expect(singleLine('👨\u200d👩\u200d👧')).toBe('👨\u200d👩\u200d👧');
    expect(singleLine('\u200dx\u200c')).toBe('x');
  });

  it('drops lone surrogates and C1 controls, keeps surrogate pairs', () => {
    expect(singleLine('Ana\ud800')).toBe('Ana');
    expect(singleLine('\udc00Gar\ud83dcía\u0085\u009b')).toBe('García ');
    expect(singleLine('🦊 Fox\ud83d')).toBe('🦊 Fox');
  });
});

describe('multiLine', () => {
  it('keeps line breaks as LF and cleans each line like singleLine', () => {
    expect(multiLine('Hello\r\nworld\u0000\u202e\ud800\rthree\u2028four\n\nbye\t!')).toBe('Hello\nworld\nthree\nfour\n\nbye !');
  });
});

describe('isValidEmail', () => {
  it('refuses control, format and lone surrogate characters', () => {
    expect(isValidEmail('ada@example.com')).toBe(true);
    expect(isValidEmail('ada\u0000@example.com')).toBe(false);
    expect(isValidEmail('ad\u200ba@example.com')).toBe(false);
    expect(isValidEmail('ada@exa\ud800mple.com')).toBe(false);
  });
});

describe.each(['http', 'ipc'] as const)('names and titles over %s', (kind) => {
  let tc: TestCore;
  let t: Transport;
  let u: TestUser;
  beforeAll(async () => {
    tc = await createTestCore();
    t = await openTransport(kind, tc.core);
    u = await signUpAndLogin(t, 'names');
  });
  afterAll(async () => {
    await t.close();
    await tc.close();
  });

  it('cleans API names: manual create, title update and an imported spec title', async () => {
    const manual = await t.call<Env<ImportData>>('POST', '/api/apis/manual', {
      token: u.token,
      body: { user_id: u.id, name: HOSTILE, base_url: 'http://localhost:3000/api', endpoints: [{ method: 'GET', path: '/a' }] },
    });
    expect(manual.status).toBe(201);
    expect(manual.json.data.api.name).toBe(CLEAN);

    const updated = await t.call<Env<{ api: ApiSummary }>>('PUT', '/api/apis/update', {
      token: u.token,
      body: { api_id: manual.json.data.api.id, updates: { title: ' Shop\u202e\n v2\u0007 ' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.data.api.name).toBe('Shop  v2');
    const invisible = await t.call<Env<never>>('PUT', '/api/apis/update', {
      token: u.token,
      body: { api_id: manual.json.data.api.id, updates: { title: '\u200b\u202e\u0000' } },
    });
    expect(invisible.status).toBe(400);

    const spec = JSON.stringify({ openapi: '3.0.3', info: { title: HOSTILE, version: '1' }, servers: [{ url: 'https://example.com' }], paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } });
    const form = new FormData();
    form.append('file', new File([spec], 'spec.json'));
    form.append('user_id', u.id);
    const imported = await t.call<Env<ImportData>>('POST', '/api/import', { token: u.token, raw: form });
    expect(imported.status).toBe(201);
    expect(imported.json.data.api.name).toBe(CLEAN);
  });

  it('cleans user names at sign-up and in Settings, and refuses a name that is only invisible', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const signup = await t.call<Env<{ user: { firstName: string; lastName: string } }>>('POST', '/api/auth/signup', {
      body: { firstName: 'Ana\u202e\u0000', lastName: 'Gar\u200bcía\r\nRoot', email: `n${suffix}@example.com`, username: `n${suffix}`, password: 'Passw0rd!long' },
    });
    expect(signup.status).toBe(201);
    expect(signup.json.data.user).toMatchObject({ firstName: 'Ana', lastName: 'García Root' });
    const empty = await t.call<Env<never>>('POST', '/api/auth/signup', {
      body: { firstName: '\u200b\u202e', lastName: 'X', email: `e${suffix}@example.com`, username: `e${suffix}`, password: 'Passw0rd!long' },
    });
    expect(empty.status).toBe(400);
    expect(empty.json.errors?.map((e) => e.field)).toContain('firstName');

    const update = await t.call<Env<{ user: { firstName: string; lastName: string } }>>('PUT', '/api/user/update', {
      token: u.token,
      body: { firstName: 'Zoë\u001b\u200b', lastName: '東京\u2067太郎' },
    });
    expect(update.status).toBe(200);
    expect(update.json.data.user).toMatchObject({ firstName: 'Zoë', lastName: '東京太郎' });
    const profile = await t.call<Env<{ user: { firstName: string } }>>('GET', '/api/user/profile', { token: u.token });
    expect(profile.json.data.user.firstName).toBe('Zoë');
    const blank = await t.call<Env<never>>('PUT', '/api/user/update', { token: u.token, body: { firstName: '\u200b\u200b\u200b', lastName: 'Doe' } });
    expect(blank.status).toBe(400);
  });

  it('drops lone surrogates from sign-up names and refuses an email with an invisible character', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const signup = await t.call<Env<{ user: { firstName: string; lastName: string } }>>('POST', '/api/auth/signup', {
      body: { firstName: 'Ana\ud800', lastName: '\udc00Gar\ud83dcía 🦊', email: `s${suffix}@example.com`, username: `s${suffix}`, password: 'Passw0rd!long' },
    });
    expect(signup.status).toBe(201);
    expect(signup.json.data.user).toMatchObject({ firstName: 'Ana', lastName: 'García 🦊' });
    const lone = await t.call<Env<never>>('POST', '/api/auth/signup', {
      body: { firstName: '\udfff\ud800', lastName: 'X', email: `l${suffix}@example.com`, username: `l${suffix}`, password: 'Passw0rd!long' },
    });
    expect(lone.status).toBe(400);
    expect(lone.json.errors).toContainEqual({ field: 'firstName', message: 'First name is required' });
    const email = await t.call<Env<never>>('POST', '/api/auth/signup', {
      body: { firstName: 'Ana', lastName: 'X', email: `m${suffix}\u0000@example.com`, username: `m${suffix}`, password: 'Passw0rd!long' },
    });
    expect(email.status).toBe(400);
    expect(email.json.errors).toContainEqual({ field: 'email', message: 'Invalid email' });
  });

  it('cleans every extended-profile field; the bio keeps its line breaks', async () => {
    const saved = await t.call<Env<{ profile: Record<string, string> }>>('PUT', '/api/user/extended-profile', {
      token: u.token,
      body: {
        phone: '+27\u0000 21 555\u200b 0100',
        company: 'Acme\u202e Corp\r\n',
        position: 'CTO\u001b[2J\u009b',
        timezone: 'UTC+02:00\ud800',
        location: 'Cape\u200bTown\u0007',
        website_url: 'https://ada.dev\u0008',
        avatar_url: 'https://ada.dev/me.png\ufeff',
        bio: 'Hello\r\nworld\u0000\u202e\ud800\n\n🦊 bye',
      },
    });
    expect(saved.status).toBe(200);
    const clean = {
      phone: '+27 21 555 0100',
      company: 'Acme Corp',
      position: 'CTO[2J',
      timezone: 'UTC+02:00',
      location: 'CapeTown',
      website_url: 'https://ada.dev',
      avatar_url: 'https://ada.dev/me.png',
      bio: 'Hello\nworld\n\n🦊 bye',
    };
    expect(saved.json.data.profile).toMatchObject(clean);
    const got = await t.call<Env<{ profile: Record<string, string> }>>('GET', '/api/user/extended-profile', { token: u.token });
    expect(got.json.data.profile).toMatchObject(clean);
  });
});
