// The staff directory: people looked up by LDAP search filter (ldap-injection) and phone extensions
// looked up by XPath in an XML phone book (xpath-injection). Both build their query the quick way, by
// pasting the value into the query text. Hardened: the LDAP value is escaped (RFC 4515) and the XPath
// value is bound as a variable.

import { DOMParser } from '@xmldom/xmldom';
import xpath from 'xpath';
import type { Ctx, TargetState } from '../context';
import { json, type Router, ValidationError } from '../http';
import { escapeFilterValue, LdapFilterError, search, type Entry } from '../ldap-filter';

/** xpath's parse() (in its README, missing from its types): an expression whose variables are bound at evaluation. */
const parseXPath = (xpath as unknown as { parse(expr: string): { select(o: { node: Node; variables: Record<string, string> }): Node[] } }).parse;

const PEOPLE: Entry[] = [
  ['alice', 'Alice Archer', 'Sales'],
  ['bob', 'Bob Baker', 'Support'],
  ['carol', 'Carol Chen', 'Finance'],
  ['dave', 'Dave Dunn', 'Warehouse'],
  ['erin', 'Erin Ellis', 'IT'],
].map(([uid, cn, ou], n) => ({
  objectclass: ['top', 'person', 'inetOrgPerson'],
  uid: [uid!],
  cn: [cn!],
  ou: [ou!],
  mail: [`${uid}@staff.acme.test`],
  telephonenumber: [`+44 20 7946 01${10 + n}`],
}));

const PHONE_BOOK = `<?xml version="1.0"?>
<phonebook>
  <employee><login>alice</login><name>Alice Archer</name><extension>2101</extension><pin>4412</pin></employee>
  <employee><login>bob</login><name>Bob Baker</name><extension>2102</extension><pin>9031</pin></employee>
  <employee><login>carol</login><name>Carol Chen</name><extension>2103</extension><pin>7720</pin></employee>
  <employee><login>dave</login><name>Dave Dunn</name><extension>2104</extension><pin>1198</pin></employee>
</phonebook>`;

function stringParam(ctx: Ctx, name: string): string {
  const v = ctx.query.get(name) ?? '';
  if (!v || v.length > 100) throw new ValidationError([{ field: name, message: 'must be a string of 1 to 100 characters' }]);
  return v;
}

function person(e: Entry) {
  return { uid: e.uid![0], name: e.cn![0], department: e.ou![0], email: e.mail![0], phone: e.telephonenumber![0] };
}

export function registerDirectory(r: Router<Ctx>, t: TargetState): void {
  r.get('/api/v2/directory/people', async (ctx) => {
    await ctx.user();
    const uid = stringParam(ctx, 'uid');
    const value = t.has('ldap-injection') ? uid : escapeFilterValue(uid);
    try {
      return json(200, { items: search(PEOPLE, `(&(objectClass=person)(uid=${value}))`).map(person) });
    } catch (e) {
      if (e instanceof LdapFilterError) return json(500, { error: 'directory_error', message: e.message });
      throw e;
    }
  });

  const doc = new DOMParser().parseFromString(PHONE_BOOK, 'text/xml');
  const bound = parseXPath('/phonebook/employee[login=$login]');
  r.get('/api/v2/directory/extensions', async (ctx) => {
    await ctx.user();
    const login = stringParam(ctx, 'login');
    let nodes: Node[];
    if (t.has('xpath-injection')) {
      try {
        nodes = xpath.select(`/phonebook/employee[login='${login}']`, doc as unknown as Node) as Node[];
      } catch (e) {
        return json(500, { error: 'lookup_failed', message: `XPath error: ${(e as Error).message}` });
      }
    } else {
      nodes = bound.select({ node: doc as unknown as Node, variables: { login } });
    }
    const text = (n: Node, tag: string) => xpath.select1(`string(${tag})`, n) as string;
    return json(200, { items: nodes.map((n) => ({ login: text(n, 'login'), name: text(n, 'name'), extension: text(n, 'extension') })) });
  });
}
