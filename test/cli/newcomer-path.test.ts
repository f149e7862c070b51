// The README's first commands on a fresh machine (issue 31, item 7): `npm install` builds better-sqlite3
// against the running Node's headers with no download and no setting of the user's own (the committed
// .npmrc), the Electron rebuild still empties that setting (else it would build for Node again), and
// `npm run serve` builds the web app it serves before starting. npm is asked, with the user's own npmrc
// left out, so the answer is the project's.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types.
import { rebuildArgs } from '../../scripts/native-modules.mjs';
import { ROOT } from '../helpers/serve-process';

const emptyUserConfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-npmrc-')), 'npmrc');
fs.writeFileSync(emptyUserConfig, '');

/** What npm in the project resolves for a setting, as a fresh machine's npm would (no user npmrc, no npm_config_* of ours). */
function npmConfig(key: string, extra: string[] = []): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  return execFileSync('npm', ['config', 'get', key, ...extra], { cwd: ROOT, env: { ...env, npm_config_userconfig: emptyUserConfig }, encoding: 'utf8' }).trim();
}

/** The commands a package.json script runs, with `npm run x` expanded, in order. */
function expandScript(name: string, scripts: Record<string, string>): string[] {
  return scripts[name]!.split('&&').flatMap((part) => {
    const cmd = part.trim();
    const m = /^npm run (?:--silent )?([\w:-]+)$/.exec(cmd);
    return m && scripts[m[1]!] ? expandScript(m[1]!, scripts) : [cmd];
  });
}

describe('the newcomer path', () => {
  afterAll(() => fs.rmSync(path.dirname(emptyUserConfig), { recursive: true, force: true }));

  it("points node-gyp at headers of the running Node's own version, so nothing is downloaded", () => {
    const nodedir = npmConfig('nodedir');
    expect(nodedir).toBe('/usr');
    const header = fs.readFileSync(path.join(nodedir, 'include', 'node', 'node_version.h'), 'utf8');
    const part = (name: string) => new RegExp(`#define\\s+NODE_${name}_VERSION\\s+(\\d+)`).exec(header)?.[1];
    expect(`${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`).toBe(process.versions.node);
  });

  it('empties that setting for the Electron rebuild', () => {
    expect(npmConfig('nodedir', rebuildArgs('electron'))).toBe('');
    expect(rebuildArgs('node')).toEqual([]);
  });

  it('builds the core and the web app before `npm run serve` starts the server', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const steps = expandScript('serve', scripts);
    const start = steps.findIndex((s) => s.startsWith('node bin/portcullis.js serve'));
    expect(start, steps.join(' && ')).toBeGreaterThan(0);
    const before = steps.slice(0, start);
    expect(before).toContain(scripts['build:core']);
    expect(before).toContain(scripts['build:renderer']);
  });
});
