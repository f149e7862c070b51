// The fast YAML reader must return exactly what js-yaml returns, or give up: checked on the
// fixtures, on documents js-yaml writes in many styles, and on damaged texts.

import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { createFastYamlReader } from './fast-yaml';

import { YAML_SCHEMA as SCHEMA } from './parse-document';
const fast = createFastYamlReader(SCHEMA);
const FIXTURES = process.env.PORTCULLIS_FIXTURES ?? '/work/shared/fixtures/specs';

type Outcome = { ok: true; value: unknown } | { ok: false };
function slow(text: string): Outcome {
  try {
    return { ok: true, value: yaml.load(text, { schema: SCHEMA }) };
  } catch {
    return { ok: false };
  }
}

/** The property: whenever the fast reader answers, js-yaml accepts the text and answers the same. */
function agrees(text: string): boolean {
  const f = fast(text);
  if (f === null) return false;
  const s = slow(text);
  expect(s.ok, `js-yaml refuses what the fast reader accepted:\n${text.slice(0, 500)}`).toBe(true);
  if (s.ok) expect(f.value, text.slice(0, 500)).toStrictEqual(s.value);
  return true;
}

const yamlFixtures = (): string[] => {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name)) out.push(p);
    }
  };
  walk(FIXTURES);
  return out;
};

describe('fast YAML reader', () => {
  it.each(yamlFixtures())('agrees with js-yaml on %s', (file) => {
    agrees(fs.readFileSync(file, 'utf8'));
  });

  it('reads the large Azure spec itself (the case it exists for)', () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'apisguru-azure-web-WebApps-2019-08-01-swagger-2.0.yaml'), 'utf8');
    expect(agrees(text)).toBe(true);
  });

  it('agrees with js-yaml on documents written in many styles', () => {
    const key = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('200', 'true', 'null', '~', '1.5', '0x1F', '-', 'a b', 'a:b', "it's", '"q"', '#x', '__proto__', '<<', 'on', 'y'));
    const scalar = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('', ' ', 'nbsp\u00a0', '\u3000wide', 'a: b', 'a #b', 'x:', "'", '"', '|', '- a', 'line\nbreak', 'trail \n', '\n\nlead', 'tab\there', '1e3', '.inf', '-.Inf', '.NaN', '0o17', '+12', '0b101', '1_000', 'Null', 'TRUE', '2001-12-14'),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
    })).node;
    const style = fc.record({
      indent: fc.constantFrom(1, 2, 4),
      noArrayIndent: fc.boolean(),
      lineWidth: fc.constantFrom(-1, 20, 80),
      flowLevel: fc.constantFrom(-1, -1, 2),
      quotingType: fc.constantFrom("'" as const, '"' as const),
      forceQuotes: fc.boolean(),
      noCompatMode: fc.boolean(),
    });
    let answered = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 6 }), style, (doc, options) => {
        const text = yaml.dump(doc, { ...options, schema: SCHEMA });
        if (agrees(text)) answered += 1;
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 3_000) },
    );
    // Enough of these reach the fast path for the comparison to mean something.
    expect(answered).toBeGreaterThan(300);
  });

  it('reads nearly every plain block document (or it would not be worth having)', () => {
    // "constructor" as a key is read right (below), but toStrictEqual compares objects' .constructor, which that key replaces.
    const word = fc.stringMatching(/^[A-Za-z][\w./{}-]{0,15}$/).filter((w) => w !== 'constructor');
    const text = fc.oneof(word, fc.stringMatching(/^[A-Za-z0-9 ,.()<>/{}'":;=-]{1,40}$/), fc.integer(), fc.boolean());
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, text, fc.array(tie('node'), { minLength: 1, maxLength: 4 }), fc.dictionary(word, tie('node'), { minKeys: 1, maxKeys: 4 })),
    })).node;
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.dictionary(word, value, { minKeys: 1, maxKeys: 6 }), fc.boolean(), (doc, noArrayIndent) => {
        runs += 1;
        if (agrees(yaml.dump(doc, { lineWidth: -1, noArrayIndent }))) answered += 1;
      }),
      { numRuns: 1_000 },
    );
    expect(answered / runs).toBeGreaterThan(0.95);
  });

  it('reads keys named like Object members as plain keys', () => {
    const text = 'A:\n  constructor:\n    - - - 0\n  toString: x\n  hasOwnProperty: 1\n';
    const f = fast(text);
    expect(f).not.toBeNull();
    expect(JSON.stringify(f!.value)).toBe(JSON.stringify(slow(text).ok ? (slow(text) as { value: unknown }).value : null));
    expect(Object.keys((f!.value as { A: object }).A)).toEqual(['constructor', 'toString', 'hasOwnProperty']);
  });

  it('never accepts a damaged text js-yaml refuses, nor reads one differently', () => {
    const bases = [
      ['openapi: 3.0.0', 'info:', '  title: T', "  version: '1'", 'paths:', '  /a:', '    get:', '      description: |-', '        line one', '         line two', '', '        line four', '      responses:', "        '200':", '          description: ok', '      tags:', '      - x', '      - y: 1', '        z: 2', '      - - nested', 'list:', '- 1', '- two', ''].join('\n'),
      ['"quoted key": "tab\\there \\u00e9 \\x41 \\"q\\""', "'single ''key''': 'it''s'", 'keep: |+', '  kept', '', 'clip: |', '  clipped', 'seq:', '  - - a', '    - b', '  - k: v', '    l:', '      - 1', '~: null', '200: 0x1F', 'e: 1e3', 'x: .inf', 'b: TRUE', 'url: https://a.test/x?y=1#z', ''].join('\n'),
      fs.readFileSync(path.join(FIXTURES, 'apisguru-azure-web-WebApps-2019-08-01-swagger-2.0.yaml'), 'utf8').split('\n').slice(0, 400).join('\n'),
    ];
    for (const base of bases) expect(agrees(base), base.slice(0, 80)).toBe(true);
    const damage = fc.record({
      at: fc.nat(),
      cut: fc.nat({ max: 4 }),
      insert: fc.constantFrom('', ' ', '  ', '-', '- ', ':', ': ', '#', ' #', "'", "''", '"', '\\', '\\u', '\\x4', '|', '|-', '|+', '\n', '\n ', '\n  -', 'k: v\n', '---\n', '...', '[', '{}', '*a', '!t ', '?', '- - ', '  k:', '\u00e9', '\u2028', '\u00a0', ' \u3000', '\ufeff'),
    });
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.array(damage, { minLength: 1, maxLength: 3 }), (base, ds) => {
        let text = base;
        for (const d of ds) {
          const at = d.at % (text.length + 1);
          text = text.slice(0, at) + d.insert + text.slice(at + d.cut);
        }
        agrees(text);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 5_000) },
    );
  });

  it('stays linear on long documents', () => {
    const lines = ['root:'];
    for (let i = 0; i < 200_000; i += 1) lines.push(`  key${i}: 'value ${i}'`);
    const t = performance.now();
    expect(fast(lines.join('\n'))).not.toBeNull();
    expect(performance.now() - t).toBeLessThan(3_000);
  });

  it('gives up on what it does not read', () => {
    for (const text of ['a: [1, 2]', 'a: >\n  folded\n', 'a: "multi\n  line"', '- a\n-\n  - b\n', 'a: &x 1\nb: *x', 'a: !!str 1', 'a:\tb', 'a: b\r\n', '--- 1\n', 'a: 1\n---\nb: 2\n', 'a: b\n  c\n', '? a\n: b\n', 'a: 1 # c\n'])
      expect(fast(text), text).toBeNull();
  });
});
