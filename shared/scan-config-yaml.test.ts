import { describe, expect, it } from 'vitest';
import { configSecrets, describeObtain, envReferences, scanConfigSchema } from './identities';
import { formatConfigIssues, parseScanConfigYaml, toScanConfigYaml } from './scan-config-yaml';

const ISSUE_SHAPE = `identities:
  - name: alice
    login:
      request: { method: POST, path: /users/v1/login, json: { username: name1, password: pass1 } }
      token: { from: body, pointer: /auth_token }
    place: { header: Authorization, value: "Bearer {token}" }
  - name: bob
    login:
      request: { method: POST, path: /users/v1/login, json: { username: name2, password: pass2 } }
      token: { from: body, pointer: /auth_token }
    place: { header: Authorization, value: "Bearer {token}" }
signup: auto   # or off
`;

describe('scan config YAML', () => {
  it('reads the shape the identities issue asks for', () => {
    const r = parseScanConfigYaml(ISSUE_SHAPE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.identities.map((i) => [i.name, i.role])).toEqual([
      ['alice', 'user'],
      ['bob', 'user'],
    ]);
    expect(r.config.identities[0]!.login!.request!.json).toEqual({ username: 'name1', password: 'pass1' });
    expect(r.config.signup).toBe('auto');
    expect(describeObtain(r.config.identities[0]!)).toBe('login recipe (POST /users/v1/login)');
  });

  it('names the line and the field of a mistake', () => {
    const r = parseScanConfigYaml(ISSUE_SHAPE.replace('pointer: /auth_token }\n    place: { header: Authorization, value: "Bearer {token}" }\n  - name: bob', 'pointr: /auth_token }\n    place: { header: Authorization, value: "Bearer {token}" }\n  - name: bob'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const lines = formatConfigIssues(r.issues, 'scan.yaml');
    expect(lines.some((l) => l.startsWith('scan.yaml:5:') && l.includes('identities.0.login.token'))).toBe(true);
  });

  it('shows an unknown key where it is written, and names exported secrets after their fields', () => {
    const r = parseScanConfigYaml('identities:\n  - name: a\n    login:\n      request: { path: /login }\n      token:\n        from: body\n        pointr: /t\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.find((i) => /pointr/.test(i.message))).toMatchObject({ line: 7, column: 9 });
    const cfg = parseScanConfigYaml('identities:\n  - name: ci\n    oauth2: { grant: password, client_id: c, client_secret: a-very-long-client-secret-value, username: u, password: pw-short }\n');
    if (!cfg.ok) throw new Error('fixture');
    const text = toScanConfigYaml(cfg.config);
    expect(text).toContain('${env:PORTCULLIS_CI_PASSWORD}');
    expect(text).toContain('${env:PORTCULLIS_CI_CLIENT_SECRET}');
  });

  it('reports a YAML syntax error with its line', () => {
    const r = parseScanConfigYaml('identities:\n  - name: a\n    token: [x\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]!.line).toBeGreaterThan(0);
  });

  it('refuses two ways of obtaining a credential, a missing one, and a reserved name', () => {
    const both = parseScanConfigYaml('identities:\n  - name: a\n    token: x\n    command: echo x\n');
    expect(!both.ok && both.issues[0]!.message).toMatch(/one way to obtain/);
    const none = parseScanConfigYaml('identities:\n  - name: a\n');
    expect(!none.ok && none.issues[0]!.message).toMatch(/Say how the credential is obtained/);
    const anon = parseScanConfigYaml('identities:\n  - name: Anonymous\n    token: x\n');
    expect(!anon.ok && anon.issues[0]!.field).toBe('identities.0.name');
    const dup = parseScanConfigYaml('identities:\n  - name: a\n    token: x\n  - name: A\n    token: y\n');
    expect(!dup.ok && dup.issues[0]!.message).toMatch(/Two identities/);
  });

  it('checks placements, OAuth2 grants and value sources', () => {
    const bad = (identity: object) => scanConfigSchema.safeParse({ identities: [{ name: 'a', ...identity }] }).success;
    expect(bad({ token: 'x', place: { header: 'X-Api-Token', value: 'no placeholder' } })).toBe(false);
    expect(bad({ token: 'x', place: { header: 'X-Api-Token', value: 'Token {token}' } })).toBe(true);
    expect(bad({ token: 'x', place: { query: 'k', cookie: 'c' } })).toBe(false);
    expect(bad({ oauth2: { grant: 'password', client_id: 'c' } })).toBe(false);
    expect(bad({ oauth2: { grant: 'password', username: 'u', password: 'p' } })).toBe(true);
    expect(bad({ login: { request: { path: '/login' }, token: { from: 'regex', pattern: '(' } } })).toBe(false);
    expect(bad({ login: { request: { path: 'login' }, token: { from: 'body', pointer: '/t' } } })).toBe(false);
    expect(bad({ login: { request: { method: 'get', path: '/login', json: {} }, token: { from: 'body', pointer: '/t' } } })).toBe(false);
  });

  it('fills ${env:NAME} only when given an environment, and names a missing one', () => {
    const y = 'identities:\n  - name: ci\n    token: ${env:CI_TOKEN}\n';
    const kept = parseScanConfigYaml(y);
    expect(kept.ok && kept.config.identities[0]!.token).toBe('${env:CI_TOKEN}');
    expect(kept.ok && envReferences(kept.config)).toEqual(['CI_TOKEN']);
    const filled = parseScanConfigYaml(y, { env: (n) => (n === 'CI_TOKEN' ? 'tok-123' : undefined) });
    expect(filled.ok && filled.config.identities[0]!.token).toBe('tok-123');
    const missing = parseScanConfigYaml(y, { env: () => undefined });
    expect(!missing.ok && missing.issues[0]).toMatchObject({ field: 'identities.0.token', line: 3, message: 'The environment variable CI_TOKEN is not set.' });
  });

  it('exports with secrets as environment references, and reads its own export back', () => {
    const r = parseScanConfigYaml(ISSUE_SHAPE);
    if (!r.ok) throw new Error('fixture');
    expect(configSecrets(r.config.identities[0]!)).toEqual(['pass1']);
    const text = toScanConfigYaml(r.config);
    expect(text).not.toContain('pass1');
    expect(text).not.toContain('pass2');
    expect(text).toContain('${env:PORTCULLIS_ALICE_PASSWORD}');
    const back = parseScanConfigYaml(text, { env: (n) => ({ PORTCULLIS_ALICE_PASSWORD: 'pass1', PORTCULLIS_BOB_PASSWORD: 'pass2' })[n] });
    expect(back.ok && back.config).toEqual(r.config);
    const withSecrets = parseScanConfigYaml(toScanConfigYaml(r.config, { secrets: 'include' }));
    expect(withSecrets.ok && withSecrets.config).toEqual(r.config);
  });

  it('reads the objects each identity owns, and names the line of a path written wrongly', () => {
    const r = parseScanConfigYaml(
      'identities:\n  - name: alice\n    token: a\n    objects:\n      "/api/Feedbacks/{id}": [3, 7, "7"]\n      /users/{userId}/cards/{cardId}: [c-1]\nwrites: existing\ndestructive: ["POST /reset"]\nseed: 42\n',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.identities[0]!.objects).toEqual({ '/api/Feedbacks/{id}': ['3', '7'], '/users/{userId}/cards/{cardId}': ['c-1'] });
    // Export YAML keeps them, and the write policy and seed with them.
    const back = parseScanConfigYaml(toScanConfigYaml(r.config, { secrets: 'include' }));
    expect(back.ok && back.config).toEqual(r.config);
    const bad = parseScanConfigYaml('identities:\n  - name: alice\n    token: a\n    objects:\n      GET /api/Feedbacks/{id}: [3]\n');
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    const lines = formatConfigIssues(bad.issues, 'scan.yaml');
    expect(lines.some((l) => l.startsWith('scan.yaml:5:') && l.includes('identities.0.objects.GET /api/Feedbacks/{id}: Name each object under objects by its path'))).toBe(true);
    const empty = parseScanConfigYaml('identities:\n  - name: alice\n    token: a\n    objects: { "/notes/{id}": [] }\n');
    expect(!empty.ok && empty.issues[0]!.message).toBe('List at least one id for each path under objects.');
    const nested = parseScanConfigYaml('identities:\n  - name: alice\n    token: a\n    objects: { "/notes/{id}": [{ id: 3 }] }\n');
    expect(!nested.ok && nested.issues[0]!.message).toBe('An id under objects must be a number or text.');
  });
});
