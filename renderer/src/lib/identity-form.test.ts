import { describe, expect, it } from 'vitest';
import type { IdentityDefaults } from '../../../shared/contract';
import { parseScanConfigYaml, toScanConfigYaml } from '../../../shared/scan-config-yaml';
import {
  checkForm,
  checkIdentity,
  draftEnvReferences,
  draftFromConfig,
  fieldKeyOf,
  identitiesFromKeyForm,
  newIdentity,
  recipeCopy,
  placeServerErrors,
  setJsonAsText,
  shownFieldKeys,
  toIdentityInput,
} from './identity-form';

const DEFAULTS: IdentityDefaults = {
  placement: 'Bearer token in Authorization (security scheme "bearerAuth")',
  place: null,
  signup_operation: 'POST /auth/signup',
  login_operation: 'POST /auth/login',
  token_url: 'http://127.0.0.1:9/api/v2/oauth/token',
  signup_default: 'auto',
  commands_allowed: false,
};

const CONFIG = `identities:
  - name: alice
    login:
      request: { method: POST, path: /auth/login, json: { username: alice, password: pw-a } }
      token: { from: body, pointer: /accessToken }
  - name: admin
    role: privileged
    login:
      steps:
        - request: { method: GET, path: /csrf }
          extract: { csrf: { from: cookie, name: XSRF } }
        - request: { method: POST, path: /auth/login, json: { username: admin, password: pw-x, remember: true }, headers: { X-CSRF: "{csrf}" } }
      token: { from: regex, pattern: "token=(\\\\w+)", in: headers }
  - name: svc
    role: lower
    oauth2: { grant: client_credentials, client_id: svc, client_secret: s3cret, scope: read }
    place: { header: X-Api-Token, value: "Token {token}" }
  - name: web
    cookie:
      request: { method: POST, path: /session, form: { user: bob, pass: pw-b } }
      csrf: { from: cookie, name: csrftoken, header: X-CSRFToken }
  - name: ci
    token: "\${env:CI_TOKEN}"
    place: { query: api_key }
signup: off
`;

describe('identity form', () => {
  it('a new identity is a login recipe pre-filled from the login operation', () => {
    const d = newIdentity(DEFAULTS, ['user1']);
    expect(d.name).toBe('user2');
    expect(d.kind).toBe('login');
    expect(d.login.steps[0]).toMatchObject({ method: 'POST', path: '/auth/login' });
    expect(d.oauth2.token_url).toBe(DEFAULTS.token_url);
    expect(newIdentity({ ...DEFAULTS, login_operation: null }, []).kind).toBe('static');
  });

  it('round-trips every way of obtaining a credential through the form unchanged', () => {
    const parsed = parseScanConfigYaml(CONFIG);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const drafts = parsed.config.identities.map((c) => draftFromConfig(c, DEFAULTS));
    expect(drafts.map((d) => d.kind)).toEqual(['login', 'login', 'oauth2', 'cookie', 'static']);
    // Flat string bodies become fields, the rest JSON text.
    expect(drafts[0]!.login.steps[0]!.jsonAsText).toBe(false);
    expect(drafts[1]!.login.steps[1]!.jsonAsText).toBe(true);
    const back = checkForm(drafts, parsed.config.signup ?? 'auto');
    expect(back.errors).toEqual({});
    expect(back.config).toEqual(parsed.config);
  });

  it('keeps the objects an imported identity owns (there is no field for them)', () => {
    const parsed = parseScanConfigYaml('identities:\n  - name: alice\n    token: t-alice\n    objects:\n      "/api/Feedbacks/{id}": [3, 7]\n');
    if (!parsed.ok) throw new Error('fixture');
    const back = checkForm(parsed.config.identities.map((c) => draftFromConfig(c, DEFAULTS)), 'off');
    expect(back.config?.identities[0]!.objects).toEqual({ '/api/Feedbacks/{id}': ['3', '7'] });
  });

  it('puts schema issues on the fields they are about', () => {
    const d = newIdentity(DEFAULTS, []);
    d.login.steps[0]!.path = 'auth/login';
    d.login.token = { from: 'header', value: '', in: 'body' };
    const { errors, config } = checkIdentity(d);
    expect(config).toBeNull();
    expect(Object.keys(errors).sort()).toEqual(['login.steps.0.path', 'login.token']);
    for (const key of Object.keys(errors)) expect(shownFieldKeys(d).has(key)).toBe(true);
  });

  it('reports bad JSON and header lines before the schema', () => {
    const d = newIdentity(DEFAULTS, []);
    d.login.steps[0]!.jsonAsText = true;
    d.login.steps[0]!.text = '{"username": ';
    d.login.steps[0]!.headers = 'no colon here';
    d.login.token.value = '/token';
    const { errors } = toIdentityInput(d);
    expect(errors['login.steps.0.body']).toMatch(/not valid JSON/);
    expect(errors['login.steps.0.headers']).toMatch(/Line 1/);
  });

  it('carries a JSON body over when it switches between fields and text', () => {
    const step = newIdentity(DEFAULTS, []).login.steps[0]!;
    step.fields = [
      { name: ' username ', value: 'alice' },
      { name: '', value: 'dropped' },
    ];
    setJsonAsText(step, true);
    expect(step.jsonAsText).toBe(true);
    expect(JSON.parse(step.text)).toEqual({ username: 'alice' });
    step.text = '{"username": "bob", "remember": true}';
    setJsonAsText(step, false);
    expect(step.fields).toEqual([
      { name: 'username', value: 'bob' },
      { name: 'remember', value: 'true' },
    ]);
    step.text = '{"broken": ';
    setJsonAsText(step, false);
    expect(step.fields.map((f) => f.name)).toEqual(['username', 'remember']);
  });

  it('maps issue paths of one request and of several steps alike', () => {
    expect(fieldKeyOf(['login', 'request', 'json'])).toBe('login.steps.0.body');
    expect(fieldKeyOf(['login', 'steps', 2, 'request', 'path'])).toBe('login.steps.2.path');
    expect(fieldKeyOf(['cookie', 'csrf', 'name'])).toBe('cookie.csrf');
    expect(fieldKeyOf(['oauth2', 'client_id'])).toBe('oauth2.client_id');
    expect(fieldKeyOf([])).toBe('identity');
  });

  it('flags duplicate names on the second identity, and places server errors', () => {
    const a = newIdentity(DEFAULTS, []);
    a.kind = 'static';
    a.token = 't1';
    const b = { ...newIdentity(DEFAULTS, []), name: a.name.toUpperCase(), kind: 'static' as const, token: 't2' };
    const check = checkForm([a, b], 'auto');
    expect(check.errors[b.id]?.name).toMatch(/Two identities/);
    const placed = placeServerErrors(
      [
        { field: 'identities.1.login.request.path', message: 'bad path' },
        { field: 'signup', message: 'bad signup' },
      ],
      [a, b],
    );
    expect(placed.byId[b.id]).toEqual({ 'login.steps.0.path': 'bad path' });
    expect(placed.general).toEqual(['signup: bad signup']);
  });

  it('carries the quick path keys over, and finds placeholders left to fill', () => {
    const drafts = identitiesFromKeyForm(DEFAULTS, 'k1', 'k2', 1);
    expect(drafts.map((d) => [d.name, d.role, d.token])).toEqual([
      ['key 1', 'lower', 'k1'],
      ['key 2', 'user', 'k2'],
    ]);
    drafts[1]!.token = '${env:KEY_TWO}';
    expect(draftEnvReferences(drafts)).toEqual(['KEY_TWO']);
  });

  it('exports without the passwords typed into the form', () => {
    const d = newIdentity(DEFAULTS, []);
    d.login.steps[0]!.fields = [
      { name: 'username', value: 'alice' },
      { name: 'password', value: 'Alice#Shop-2026' },
    ];
    d.login.token.value = '/accessToken';
    const check = checkForm([d], 'auto');
    expect(check.config).not.toBeNull();
    const yaml = toScanConfigYaml(check.config!);
    expect(yaml).not.toContain('Alice#Shop-2026');
    expect(yaml).toContain('${env:');
    expect(toScanConfigYaml(check.config!, { secrets: 'include' })).toContain('Alice#Shop-2026');
  });
});

describe('a new identity copies the first one\'s recipe (issue 31)', () => {
  it('keeps how it logs in and where the token is and goes, empties who logs in and every secret', () => {
    const parsed = parseScanConfigYaml(`identities:
  - name: alice
    login:
      request:
        path: /auth/login
        json: { username: alice, password: Alice-Pass-1, tenant: acme }
        headers: { X-Api-Key: k-123456, X-Client: web }
      token: { from: body, pointer: /data/token }
    place: { header: X-Auth, value: "Token {token}" }
`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const first = draftFromConfig(parsed.config.identities[0]!, DEFAULTS);
    const copy = recipeCopy(first, DEFAULTS, ['alice']);
    expect(copy.name).toBe('user2');
    expect(copy.id).not.toBe(first.id);
    expect(copy.kind).toBe('login');
    const input = toIdentityInput(copy).input as { login: { request: Record<string, unknown>; token: unknown }; place: unknown };
    expect(input.login.request).toEqual({ method: 'POST', path: '/auth/login', json: { username: '', password: '', tenant: 'acme' }, headers: { 'X-Api-Key': '', 'X-Client': 'web' } });
    expect(input.login.token).toEqual({ from: 'body', pointer: '/data/token' });
    expect(input.place).toEqual({ header: 'X-Auth', value: 'Token {token}' });
    expect(JSON.stringify(copy)).not.toMatch(/Alice-Pass-1|k-123456|"alice"/);
    // The first identity is left as it was.
    expect(first.login.steps[0]!.fields[1]!.value).toBe('Alice-Pass-1');
  });

  it('empties JSON text, a raw body and OAuth2 secrets alike, and keeps a static token\'s placement only', () => {
    const first = newIdentity(DEFAULTS, []);
    first.login.steps[0]!.jsonAsText = true;
    first.login.steps[0]!.text = JSON.stringify({ auth: { email: 'a@example.com', passwd: 'x1' }, remember: true });
    const copy = recipeCopy(first, DEFAULTS, ['user1']);
    expect(JSON.parse(copy.login.steps[0]!.text)).toEqual({ auth: { email: '', passwd: '' }, remember: true });

    first.login.steps[0]!.bodyKind = 'raw';
    first.login.steps[0]!.text = 'user=bob&password=Bob-Pass-2&grant=pw';
    expect(recipeCopy(first, DEFAULTS, []).login.steps[0]!.text).toBe('user=&password=&grant=pw');

    first.kind = 'oauth2';
    first.oauth2 = { ...first.oauth2, grant: 'password', client_id: 'web', client_secret: 's3', username: 'bob', password: 'p', scope: 'read' };
    expect(recipeCopy(first, DEFAULTS, []).oauth2).toMatchObject({ grant: 'password', client_id: 'web', client_secret: '', username: '', password: '', scope: 'read' });

    first.kind = 'static';
    first.token = 'tok-123';
    first.place = { ...first.place, kind: 'query', query: 'api_key' };
    const key = recipeCopy(first, DEFAULTS, []);
    expect(key.token).toBe('');
    expect(key.place).toMatchObject({ kind: 'query', query: 'api_key' });
  });
});
