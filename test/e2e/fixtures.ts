// Shared pieces of the browser tests: the server started by the global setup, unique accounts,
// the reset link read from the server log, and a quick way to start a page signed in.

import fs from 'node:fs';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { STORAGE_KEYS } from '../../shared/constants';

export interface Account {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
}

let counter = 0;

/** A new account's details; unique across workers and runs. */
export function newAccount(): Account {
  const id = `${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${id}@example.com`,
    username: `ada_${id}`,
    // The id is base 36 and may hold no digit: the fixed "9" keeps the password within the rules.
    password: `Sturdy-pass-9${id}`,
  };
}

export function serverUrl(): string {
  const url = process.env.PORTCULLIS_E2E_URL;
  if (!url) throw new Error('PORTCULLIS_E2E_URL is not set: run the tests through playwright.config.ts (global setup).');
  return url;
}

/** Creates the account through the API. */
export async function createAccount(request: APIRequestContext, account: Account = newAccount()): Promise<Account> {
  const { firstName, lastName, email, username, password } = account;
  const res = await request.post(`${serverUrl()}/api/auth/signup`, { data: { firstName, lastName, email, username, password } });
  expect(res.status(), await res.text()).toBe(201);
  return account;
}

/** Creates the account on another team server (sync mode tests). */
export async function createAccountOn(request: APIRequestContext, baseUrl: string, account: Account = newAccount()): Promise<Account> {
  const { firstName, lastName, email, username, password } = account;
  const res = await request.post(`${baseUrl}/api/auth/signup`, { data: { firstName, lastName, email, username, password } });
  expect(res.status(), await res.text()).toBe(201);
  return account;
}

/** Signs in through the API and leaves the token where the app looks for it on the next load. */
export async function signInByStorage(page: Page, request: APIRequestContext, account: Account): Promise<void> {
  const res = await request.post(`${serverUrl()}/api/auth/login`, { data: { username: account.username, password: account.password } });
  expect(res.ok(), await res.text()).toBe(true);
  const { data } = (await res.json()) as { data: { token: string; user: { id: string } } };
  await page.addInitScript(
    ([tokenKey, userKey, token, userId]) => {
      if (!sessionStorage.getItem('e2e-seeded')) {
        localStorage.setItem(tokenKey, token);
        localStorage.setItem(userKey, userId);
        sessionStorage.setItem('e2e-seeded', '1');
      }
    },
    [STORAGE_KEYS.authToken, STORAGE_KEYS.userId, data.token, data.user.id] as const,
  );
}

/** The newest reset link the server logged for this address (waits for it to appear). */
export async function resetLinkFor(email: string): Promise<string> {
  const logFile = process.env.PORTCULLIS_E2E_LOG;
  if (!logFile) throw new Error('PORTCULLIS_E2E_LOG is not set.');
  const pattern = new RegExp(`Password reset link for ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (\\S+)`, 'g');
  let link = '';
  await expect
    .poll(
      () => {
        const matches = [...fs.readFileSync(logFile, 'utf8').matchAll(pattern)];
        link = matches.at(-1)?.[1] ?? '';
        return link;
      },
      { message: `reset link for ${email} in the server log`, timeout: 10_000 },
    )
    .not.toBe('');
  return link;
}

// Playwright reads a fixture's dependencies from its first parameter's destructuring pattern.
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(serverUrl());
  },
});

export { expect };

interface Timing {
  shown?: number;
  navigations: { at: number; path: string }[];
}

/**
 * Measures, inside the page, the time from the moment an element (a success message) first appears to
 * the in-app navigation to `path`: the spec's redirect delays, without polling slack from the test side.
 */
export async function trackRedirect(page: Page, testId: string): Promise<(path: string) => Promise<number>> {
  await page.addInitScript((id) => {
    const w = window as unknown as { __timing: Timing };
    w.__timing = { navigations: [] };
    new MutationObserver(() => {
      if (w.__timing.shown === undefined && document.querySelector(`[data-testid="${id}"]`)) w.__timing.shown = performance.now();
    }).observe(document, { childList: true, subtree: true });
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history);
      history[method] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        w.__timing.navigations.push({ at: performance.now(), path: location.pathname });
      };
    }
  }, testId);
  return async (path) => {
    const timing = await page.evaluate(() => (window as unknown as { __timing: Timing }).__timing);
    const nav = timing.navigations.find((n) => n.path === path && timing.shown !== undefined && n.at >= timing.shown);
    expect(timing.shown, `${testId} was never shown`).toBeDefined();
    expect(nav, `no navigation to ${path} after ${testId} appeared`).toBeDefined();
    return nav!.at - timing.shown!;
  };
}

export interface TargetInfo {
  url: string;
  baseUrl: string;
  /** The OpenAPI YAML file of the target (its server URL points at this instance). */
  spec: string;
  users: Record<'alice' | 'bob' | 'admin', { username: string; password: string; email: string; key: string; apiKey: string }>;
}

/** The vulnerable test target started by the global setup. */
export function target(): TargetInfo {
  const raw = process.env.PORTCULLIS_E2E_TARGET;
  if (!raw) throw new Error('PORTCULLIS_E2E_TARGET is not set: run the tests through playwright.config.ts (global setup).');
  return JSON.parse(raw) as TargetInfo;
}

/** Signs in through the API: the bearer token and user id. */
export async function apiLogin(request: APIRequestContext, account: Account): Promise<{ token: string; userId: string }> {
  const res = await request.post(`${serverUrl()}/api/auth/login`, { data: { username: account.username, password: account.password } });
  expect(res.ok(), await res.text()).toBe(true);
  const { data } = (await res.json()) as { data: { token: string; user: { id: string } } };
  return { token: data.token, userId: data.user.id };
}

export interface ImportedTarget {
  apiId: string;
  endpoints: { id: string; method: string; path: string }[];
}

/** Calls the API as the token's user; the call must succeed. Returns the envelope's data. */
export async function api<T>(request: APIRequestContext, token: string, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(`${serverUrl()}${path}`, { method, headers: { authorization: `Bearer ${token}` }, data });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** POSTs to the API as the token's user (see api()). */
export function postAs<T>(request: APIRequestContext, token: string, path: string, data?: unknown): Promise<T> {
  return api<T>(request, token, 'POST', path, data);
}

/** Switches the app to a theme with its toggle and waits for the end state. */
export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  // Colours fade for 300 ms after a switch: axe and screenshots must see the end state.
  await expect(page.locator('html')).not.toHaveClass(/theme-transition/);
}

/**
 * Imports the test target's OpenAPI file as the token's user. With `keep` ("GET /me", ...), every other
 * endpoint is flagged SKIP, so a scan of the API stays short.
 */
export async function importTarget(request: APIRequestContext, token: string, keep?: readonly string[]): Promise<ImportedTarget> {
  const imported = await request.post(`${serverUrl()}/api/import`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: 'openapi.yaml', mimeType: 'application/yaml', buffer: fs.readFileSync(target().spec) } },
  });
  expect(imported.ok(), await imported.text()).toBe(true);
  const apiId = ((await imported.json()) as { data: { api: { id: string } } }).data.api.id;
  const { endpoints } = await postAs<{ endpoints: ImportedTarget['endpoints'] }>(request, token, '/api/endpoints', { api_id: apiId });
  if (keep) {
    for (const e of endpoints) {
      if (!keep.includes(`${e.method} ${e.path}`)) await postAs(request, token, '/api/endpoints/flags/add', { api_id: apiId, endpoint_id: e.id, flags: 'SKIP' });
    }
  }
  return { apiId, endpoints };
}
