// Text -> a parsed document. JSON when the text starts with { or [, YAML otherwise. YAML goes
// through js-yaml (about 8x faster than the `yaml` package on a 2.3 MB spec, see
// docs/benchmarks.md) with the YAML 1.2 core schema plus merge keys: no timestamps, no binary, no
// custom tags; plain block YAML first tries fast-yaml.ts, which reads the same values or gives up.
// Errors name a line and column. The values a parser would allocate are counted first
// (count-values.ts); alias expansion and depth are checked afterwards by
// guard-document.ts, which js-yaml cannot bound itself.

import yaml from 'js-yaml';
import { guardValueCount } from './count-values';
import { ImportError, lineColumn, lineColumnOf } from './errors';
import { createFastYamlReader } from './fast-yaml';
import { findJsonSyntaxError } from './json-syntax';
import { IMPORT_LIMITS } from './limits';

export type Syntax = 'json' | 'yaml';

export interface ParsedDocument {
  syntax: Syntax;
  value: unknown;
}

// js-yaml 4.3 has `types` and `maxDepth`; @types/js-yaml (4.0) does not know them yet.
const jsYaml = yaml as typeof yaml & { types: { merge: yaml.Type } };
type LoadOptions = yaml.LoadOptions & { maxDepth?: number };
// Merge keys must be an implicit type: extend([merge]) would only accept an explicit `!!merge`.
export const YAML_SCHEMA = yaml.CORE_SCHEMA.extend({ implicit: [jsYaml.types.merge] });
/** Plain block YAML is read ~3x faster by fast-yaml.ts; anything else (and every error) by js-yaml. */
const readPlainBlockYaml = createFastYamlReader(YAML_SCHEMA);

function jsonError(text: string, err: unknown): ImportError {
  const raw = err instanceof Error ? err.message : String(err);
  const at = /at position (\d+)/.exec(raw);
  const located = at ? null : findJsonSyntaxError(text);
  const offset = at ? Number(at[1]) : (located?.offset ?? text.length);
  let reason = raw
    .replace(/\s*in JSON at position \d+.*$/s, '')
    .replace(/^(Unexpected token .*?), ".*" is not valid JSON$/s, '$1')
    .trim();
  if (!at && located) reason = located.message;
  const { line, column } = lineColumnOf(text, offset);
  return new ImportError(`The file is not valid JSON: ${reason}.`, lineColumn(line, column));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw jsonError(text, err);
  }
}

function parseYaml(text: string): unknown {
  const fast = readPlainBlockYaml(text);
  if (fast) return fast.value;
  try {
    // js-yaml counts scalars as a level too: one more lets leaves sit under the deepest allowed container.
    const options: LoadOptions = { schema: YAML_SCHEMA, maxDepth: IMPORT_LIMITS.maxDocumentDepth + 1 };
    return yaml.load(text, options);
  } catch (err) {
    if (err instanceof yaml.YAMLException) {
      const reason = err.reason || 'invalid YAML';
      const where = err.mark ? lineColumn(err.mark.line + 1, err.mark.column + 1) : '';
      if (/maxDepth/.test(reason))
        throw new ImportError(`The file nests deeper than ${IMPORT_LIMITS.maxDocumentDepth} levels.`, where);
      throw new ImportError(`The file is not valid YAML: ${reason}.`, where);
    }
    if (err instanceof RangeError) throw new ImportError('The file nests too deeply to read.');
    throw err;
  }
}

export function parseDocument(text: string): ParsedDocument {
  const start = /\S/.exec(text);
  if (!start) throw new ImportError('The file is empty.');
  const first = text[start.index];
  const syntax: Syntax = first === '{' || first === '[' ? 'json' : 'yaml';
  guardValueCount(text, syntax);
  const value = syntax === 'json' ? parseJson(text) : parseYaml(text);
  return { syntax, value };
}
