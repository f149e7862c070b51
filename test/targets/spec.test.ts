// The target's OpenAPI document: a standard importer accepts it, it documents exactly the
// documented surface, and the hardened twin answers every documented operation with a declared
// status and a body that matches the declared schema.

import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { documentedOperations, startTarget, type Target } from '.';
import { type AnyJson, call } from './testing';

type Json = Record<string, AnyJson>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function deref(spec: Json, s: Json | undefined): Json | undefined {
  let cur = s;
  while (cur && typeof cur.$ref === 'string') {
    cur = (cur.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: Json, k: string) => o[k], spec);
  }
  return cur;
}

/** A request value from a schema: example, enum, default, then a type default. */
function sample(spec: Json, schema: Json | undefined): unknown {
  const s = deref(spec, schema);
  if (!s) return undefined;
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (s.type) {
    case 'object': {
      const out: Json = {};
      for (const [name, prop] of Object.entries<Json>(s.properties ?? {})) {
        const p = deref(spec, prop)!;
        if (p.readOnly) continue;
        out[name] = sample(spec, p);
      }
      return out;
    }
    case 'array':
      return [sample(spec, s.items)];
    case 'integer':
      return Math.max(1, s.minimum ?? 1);
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return s.format === 'email' ? 'someone@example.com' : 'sample';
  }
}

function operations(spec: Json): { method: string; path: string; op: Json }[] {
  const out: { method: string; path: string; op: Json }[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths)) {
    for (const method of METHODS) if (item[method]) out.push({ method, path, op: item[method] });
  }
  return out;
}

describe('OpenAPI document', () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({ mode: 'hardened' });
  });
  afterAll(() => t.close());

  it('validates with @apidevtools/swagger-parser (no external resolution)', async () => {
    const opts = { resolve: { external: false, file: false, http: false } } as unknown as SwaggerParser.Options;
    const api = await SwaggerParser.validate(structuredClone(t.spec) as never, opts);
    expect(api.info.title).toBe('Acme Shop API');
    const fromYaml = await SwaggerParser.validate(YAML.parse(t.specText) as never, opts);
    expect(Object.keys(fromYaml.paths ?? {})).toEqual(Object.keys(api.paths ?? {}));
  });

  it('is the same document as YAML, as JSON and as an object, with this instance as its server', () => {
    expect(YAML.parse(t.specText)).toEqual(t.spec);
    expect(JSON.parse(t.specJson)).toEqual(t.spec);
    expect((t.spec.servers as Json[])[0]!.url).toBe(t.baseUrl);
  });

  it('lists exactly the documented operations and nothing undocumented', () => {
    const listed = operations(t.spec).map(({ method, path }) => `${method.toUpperCase()} /api/v2${path}`);
    expect(listed.sort()).toEqual(documentedOperations().sort());
    const paths = Object.keys(t.spec.paths as Json);
    for (const p of paths) expect(p).not.toMatch(/v1|swagger|openapi|api-docs|actuator|debug|metrics|graphql|^\/admin\/(orders|notes|documents|transfers|payments)/);
    // GET-only resources document only GET (the undeclared methods are the method-swap flaw).
    expect(Object.keys((t.spec.paths as Json)['/orders/{orderId}'])).toEqual(['get']);
    expect(Object.keys((t.spec.paths as Json)['/me']).sort()).toEqual(['get', 'patch']);
  });

  it('documents bearer JWT security, readOnly fields, size limits and page-size maximums', () => {
    const c = t.spec.components as Json;
    expect(c.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(c.schemas.Order.properties.status.readOnly).toBe(true);
    expect(c.schemas.User.properties.role.readOnly).toBe(true);
    expect(c.schemas.Note.properties.title.maxLength).toBe(120);
    expect(c.schemas.Note.properties.tags.maxItems).toBe(10);
    expect(c.schemas.OrderItem.properties.quantity.maximum).toBe(10);
    const params = (p: string, m = 'get') => ((t.spec.paths as Json)[p][m].parameters as Json[]).map((x) => [x.name, x.schema.maximum]);
    expect(params('/products')).toContainEqual(['limit', 100]);
    expect(params('/products/{productId}/reviews')).toContainEqual(['page_size', 50]);
    expect(params('/activity')).toContainEqual(['per_page', 50]);
    // Public operations opt out of the global security requirement.
    expect((t.spec.paths as Json)['/products'].get.security).toEqual([]);
    expect((t.spec.paths as Json)['/orders/{orderId}'].get.security).toBeUndefined();
  });

  it('the hardened twin answers every documented operation (built from the spec examples) with a declared status and a conforming body', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(t.spec as object, 'spec');
    const problems: string[] = [];
    for (const { method, path, op } of operations(t.spec)) {
      let url = `/api/v2${path}`;
      const query = new URLSearchParams();
      const headers: Record<string, string> = {};
      for (const p of (op.parameters ?? []) as Json[]) {
        const v = String(sample(t.spec, p.schema));
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(v));
        else if (p.in === 'query' && p.required) query.set(p.name, v);
        else if (p.in === 'header' && p.required) headers[p.name] = `sha256=${'0'.repeat(64)}`;
      }
      if (query.size) url += `?${query}`;
      const json = op.requestBody?.content['application/json'];
      const body = json ? sample(t.spec, json.schema) : undefined;
      // A file upload gets one small file part (not a real image: the route's refusal must be declared too).
      const boundary = 'spec-test-boundary';
      const raw = !json && op.requestBody?.content['multipart/form-data'] ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot an image\r\n--${boundary}--\r\n` : undefined;
      if (raw) headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      const secured = op.security === undefined;
      const res = await call(t, method.toUpperCase(), url, { key: secured ? t.users.alice.key : undefined, body, headers, ...(raw ? { raw } : {}) });
      const declared = Object.keys(op.responses);
      if (!declared.includes(String(res.status))) {
        problems.push(`${method.toUpperCase()} ${url} -> undeclared ${res.status} ${res.text.slice(0, 120)}`);
        continue;
      }
      const schema = op.responses[String(res.status)].content?.['application/json']?.schema as Json | undefined;
      if (schema && res.status < 300) {
        const ref = schema.$ref ? `spec${schema.$ref}` : undefined;
        const validate = ref ? ajv.getSchema(ref) : ajv.compile({ ...schema, items: schema.items?.$ref ? { $ref: `spec${schema.items.$ref}` } : schema.items });
        if (validate && !validate(res.json)) problems.push(`${method.toUpperCase()} ${url} -> ${res.status} body does not match: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(t.internalErrors).toEqual([]);
  });
});
