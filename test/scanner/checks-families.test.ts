// The injection families and the race of issue #28 item 5, on the Acme test target: LDAP and XPath
// injection, argument injection (a value run without a shell), SQL where the parameter is a whole
// statement, and a race on a one-time action. Each finds its flaw with only that flaw on, stays silent
// on the hardened twin, and keeps to its budget.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DOMParser } from '@xmldom/xmldom';
import xpath from 'xpath';
import { afterEach, describe, expect, it } from 'vitest';
import { raceOneTime, RACE_BURST } from '../../electron/scanner/checks/api6-business-flows/race-condition';
import { argumentInjection } from '../../electron/scanner/checks/api8-misconfiguration/argument-injection';
import { ldapInjection, xpathInjection } from '../../electron/scanner/checks/api8-misconfiguration/filter-injection';
import { nosqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/nosql-injection';
import { commandInjection } from '../../electron/scanner/checks/api8-misconfiguration/command-injection';
import { sqlInjection } from '../../electron/scanner/checks/api8-misconfiguration/sql-injection';
import { sqlStatement } from '../../electron/scanner/checks/api8-misconfiguration/sql-statement';
import type { Check } from '../../electron/scanner/checks/types';
import { scanChecks, type CheckScan, type CheckScanOptions } from '../helpers/check-scan';
import { onlyFlaws, startTarget, type FlawId, type Target } from '../targets';
import { search, type Entry } from '../targets/ldap-filter';
import { endpoint, expectWithinBudget, scanServer } from './check-harness';

const targets: Target[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function target(flaw: FlawId | null): Promise<Target> {
  const t = await startTarget({ mode: 'hardened', flaws: flaw ? onlyFlaws(flaw) : {} });
  targets.push(t);
  return t;
}

async function scan(t: Target, checks: Check[], opts: CheckScanOptions): Promise<CheckScan> {
  const s = await scanChecks(t, checks, opts);
  expect(s.outcome.status).toBe('completed');
  expectWithinBudget(s, checks);
  return s;
}

const found = (s: CheckScan, c: Check) => s.of(c).map((f) => [f.vulnerability_name, `${f.method} ${f.path}`, f.parameter]);

describe('LDAP and XPath injection', () => {
  const only = ['GET /directory/people', 'GET /directory/extensions'];

  it('finds a search filter built from the uid (ldap-injection) and nothing on the hardened twin', async () => {
    const s = await scan(await target('ldap-injection'), [ldapInjection, xpathInjection, sqlInjection, nosqlInjection], { only });
    expect(found(s, ldapInjection)).toEqual([['LDAP injection (error-based)', 'GET /directory/people', 'uid']]);
    expect(s.of(ldapInjection)[0]!.evidence).toContain('Bad search filter');
    // The other query languages' checks do not take it for theirs.
    expect([...s.of(xpathInjection), ...s.of(sqlInjection), ...s.of(nosqlInjection)]).toEqual([]);
    const h = await scan(await target(null), [ldapInjection], { only });
    expect(h.of(ldapInjection)).toEqual([]);
    expect(h.sent(ldapInjection)).toBeGreaterThan(0);
  });

  it('finds a phone-book predicate built from the login (xpath-injection) and nothing on the hardened twin', async () => {
    const s = await scan(await target('xpath-injection'), [xpathInjection, ldapInjection, sqlInjection, nosqlInjection], { only });
    expect(found(s, xpathInjection)).toEqual([['XPath injection (error-based)', 'GET /directory/extensions', 'login']]);
    expect([...s.of(ldapInjection), ...s.of(sqlInjection), ...s.of(nosqlInjection)]).toEqual([]);
    const h = await scan(await target(null), [xpathInjection], { only });
    expect(h.of(xpathInjection)).toEqual([]);
    expect(h.sent(xpathInjection)).toBeGreaterThan(0);
  });
});

describe('Argument injection and whole SQL statements', () => {
  it('finds a file name run as an argument without a shell (argument-injection), not as shell command injection, and nothing on the hardened twin', async () => {
    const only = ['GET /downloads/preview'];
    const s = await scan(await target('argument-injection'), [argumentInjection, commandInjection], { only });
    expect(found(s, argumentInjection)).toEqual([['Argument injection (a value taken as a program option)', 'GET /downloads/preview', 'file']]);
    expect(s.of(argumentInjection)[0]!.evidence).toMatch(/Usage: head/);
    expect(s.of(commandInjection)).toEqual([]);
    const h = await scan(await target(null), [argumentInjection], { only });
    expect(h.of(argumentInjection)).toEqual([]);
    expect(h.sent(argumentInjection)).toBeGreaterThan(0);
  });

  it('finds a report route that runs the statement it is sent (sql-statement), and nothing on the hardened twin', async () => {
    const only = ['POST /reports/run'];
    const s = await scan(await target('sql-statement'), [sqlStatement, sqlInjection], { only });
    expect(found(s, sqlStatement)).toEqual([['SQL injection (the parameter is a whole statement)', 'POST /reports/run', 'sql']]);
    expect(s.of(sqlStatement)[0]!.evidence).toMatch(/SELECT \d+\*\d+/);
    const h = await scan(await target(null), [sqlStatement], { only });
    expect(h.of(sqlStatement)).toEqual([]);
    expect(h.sent(sqlStatement)).toBeGreaterThan(0);
  });
});

describe('Race condition on a one-time action', () => {
  const only = ['POST /promotions/redeem'];

  it('redeems a promo code several times with a burst of parallel requests (race-promo-code), and not on the hardened twin', async () => {
    const t = await target('race-promo-code');
    const s = await scan(t, [raceOneTime], { only });
    expect(found(s, raceOneTime)).toEqual([['Race condition on a one-time action: Redeem a promo code (once per customer): adds store credit', 'POST /promotions/redeem', 'parallel requests']]);
    expect(s.of(raceOneTime)[0]!.evidence).toContain('already used this promo code');
    // The burst went to the target together: its requests overlapped in time.
    const burst = t.requests.filter({ method: 'POST', path: '/api/v2/promotions/redeem' }).filter((r) => r.headers.authorization !== `Bearer ${t.users.alice.key}`);
    expect(burst.length).toBe(RACE_BURST + 1);

    const h = await target(null);
    const hs = await scan(h, [raceOneTime], { only });
    expect(hs.of(raceOneTime)).toEqual([]);
    expect(hs.sent(raceOneTime)).toBe(RACE_BURST + 3);
  });

  it('sends no burst where the same request again is not refused (a transfer is not a one-time action)', async () => {
    const t = await target('race-promo-code');
    const s = await scan(t, [raceOneTime], { only: ['POST /transfers'] });
    expect(s.of(raceOneTime)).toEqual([]);
    expect(t.requests.count({ method: 'POST', path: '/api/v2/transfers' })).toBeLessThanOrEqual(2);
  });
});

describe('LDAP and XPath injection without an error to read', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  /**
   * A directory and a phone book that answer an empty list when their query fails (no error to read), and
   * a catalogue search that takes * as a wildcard on purpose and returns everything for a value it cannot
   * read: neither is injection, and the second must not pass for one.
   */
  async function server(): Promise<string> {
    const people: Entry[] = ['ann', 'ben', 'cat'].map((uid) => ({ objectclass: ['top', 'person'], uid: [uid], cn: [uid.toUpperCase()] }));
    const doc = new DOMParser().parseFromString('<book><e><login>ann</login></e><e><login>ben</login></e><e><login>cat</login></e></book>', 'text/xml');
    const products = ['red mug', 'blue mug', 'green plate'];
    const s = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (items: unknown[]) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ items }));
      };
      const v = url.searchParams.get('uid') ?? url.searchParams.get('login') ?? url.searchParams.get('name') ?? '';
      if (url.pathname === '/people') {
        try {
          return send(search(people, `(&(objectClass=person)(uid=${v}))`).map((e) => e.uid![0]));
        } catch {
          return send([]);
        }
      }
      if (url.pathname === '/phones') {
        try {
          return send((xpath.select(`/book/e[login='${v}']`, doc as unknown as Node) as Node[]).map((n) => n.textContent));
        } catch {
          return send([]);
        }
      }
      if (url.pathname === '/products') {
        if (!/^[\w *]+$/.test(v)) return send(products);
        const re = new RegExp(`^${v.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
        return send(products.filter((p) => re.test(p)));
      }
      res.writeHead(404).end();
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }

  const query = (name: string, example: string) => ({ parameters: [{ name, in: 'query' as const, required: true, schema: { type: 'string', example } }] });

  it('proves both by their own conditions, and takes a wildcard search for none', async () => {
    const base = await server();
    const endpoints = [endpoint('GET', '/people', query('uid', 'ann')), endpoint('GET', '/phones', query('login', 'ann')), endpoint('GET', '/products', query('name', 'red mug'))];
    const { findings, outcome } = await scanServer(base, endpoints, [ldapInjection, xpathInjection], { 1: 'k1' });
    expect(outcome.status).toBe('completed');
    expect(findings.map((f) => [f.check_id, f.vulnerability_name, f.path]).sort()).toEqual([
      ['api8-ldap-injection', 'LDAP injection (boolean-based)', '/people'],
      ['api8-xpath-injection', 'XPath injection (boolean-based)', '/phones'],
    ]);
  });
});
