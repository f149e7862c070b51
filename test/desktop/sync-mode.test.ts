// Sync mode in the renderer's own code, against real servers: connecting checks the address and that a
// Portcullis server answers, signs the local session out, and sends every later call to the server;
// disconnecting returns to the local transport.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../shared/constants';
import { TEAM_SERVER_MESSAGES } from '../../shared/messages';
import * as authApi from '../../renderer/src/api/auth';
import { serverUrl, setServerUrl } from '../../renderer/src/api/request';
import { probeServer } from '../../renderer/src/lib/team-server';
import { memoryStorage } from '../../renderer/src/stores/storage';
import { createServerStore } from '../../renderer/src/stores/useServerStore';
import { createTestCore, httpTransport, signUpAndLogin, type TestCore } from '../helpers/core';

let team: TestCore;
let teamHttp: Awaited<ReturnType<typeof httpTransport>>;
let other: http.Server;
let otherUrl: string;

beforeAll(async () => {
  team = await createTestCore();
  teamHttp = await httpTransport(team.core);
  other = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Some other site</h1>'));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  setServerUrl('');
  await teamHttp.close();
  await team.close();
  other.close();
});

describe('sync mode', () => {
  it('connects to a team server: the session here ends, and sign-in and every call go there', async () => {
    const account = await signUpAndLogin(teamHttp, 'synced');
    const storage = memoryStorage();
    let signedOut = 0;
    const store = createServerStore({ storage, probe: (o) => probeServer(o), signOut: () => void (signedOut += 1) });
    expect(store.getState().url).toBeNull();

    const outcome = await store.getState().connect(`${teamHttp.server.url}/`);
    expect(outcome).toEqual({ ok: true, url: teamHttp.server.url, host: new URL(teamHttp.server.url).host });
    expect(signedOut).toBe(1);
    expect(serverUrl()).toBe(teamHttp.server.url);
    expect(storage.getItem(STORAGE_KEYS.serverUrl)).toBe(teamHttp.server.url);

    // The renderer's own client now reaches the team server.
    const login = await authApi.login({ username: account.username, password: account.password });
    expect(login.ok && 'user' in login.data && login.data.user.id).toBe(account.id);

    store.getState().disconnect();
    expect(signedOut).toBe(2);
    expect(serverUrl()).toBe('');
    expect(store.getState().url).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.serverUrl)).toBeNull();
  });

  it('refuses what is not a Portcullis server, or not there, and stays local', async () => {
    const storage = memoryStorage();
    let signedOut = 0;
    const store = createServerStore({ storage, probe: (o) => probeServer(o, fetch, 2000), signOut: () => void (signedOut += 1) });
    expect(await store.getState().connect(otherUrl)).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.notPortcullis(otherUrl) });
    const closed = 'http://127.0.0.1:9';
    expect(await store.getState().connect(closed)).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.unreachable(closed) });
    expect(await store.getState().connect('http://team.example.com')).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.httpsRequired });
    expect(signedOut).toBe(0);
    expect(serverUrl()).toBe('');
    expect(storage.getItem(STORAGE_KEYS.serverUrl)).toBeNull();
  });
});
