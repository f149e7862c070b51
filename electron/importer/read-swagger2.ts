// Swagger 2.0 -> API and endpoints: host + basePath + schemes, body and formData parameters
// turned into a request body, `produces`/`consumes` into content types.

import type { EndpointParameter, JsonSchema, RequestBodySpec, ResponseSpec } from '../../shared/contract';
import { IMPORT_LIMITS } from './limits';
import {
  completeParameters,
  finishBaseUrl,
  IGNORED_HEADERS,
  normalizeSecurity,
  pathItems,
  pathPointer,
  pickMediaType,
  readSecuritySchemes,
  readTags,
} from './openapi-common';
import type { PendingOperation, SpecReading } from './read-spec';
import { RefResolver, type Budget, type Budgets } from './resolve-refs';
import { HTTP_METHODS, type ExtractedEndpoint } from './result';
import { SkipOperation } from './errors';
import type { Warnings } from './warnings';
import { arr, clampText, isObject, obj, oneLine, own, put, str, type Obj } from './values';

const SIMPLE_PLACES = new Set(['path', 'query', 'header']);
/** Fields of a non-body Swagger 2 parameter that make up its schema. */
const PARAM_SCHEMA_FIELDS = [
  'type',
  'format',
  'items',
  'collectionFormat',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'enum',
  'multipleOf',
  'x-example',
];

interface Ctx {
  refs: RefResolver;
  warnings: Warnings;
  budget: Budget;
  responseBudget: Budget;
  where: string;
}

function strings(v: unknown): string[] {
  return (arr(v) ?? []).filter((x): x is string => typeof x === 'string').slice(0, 50);
}

function baseUrlOf(doc: Obj, warnings: Warnings): string {
  const host = str(doc.host)?.trim();
  const basePath = str(doc.basePath)?.trim() || '';
  const path = basePath && !basePath.startsWith('/') ? `/${basePath}` : basePath;
  if (!host) return finishBaseUrl(path, '/host', warnings);
  const schemes = strings(doc.schemes).map((s) => s.toLowerCase());
  const scheme = schemes.includes('https') ? 'https' : schemes.includes('http') ? 'http' : 'https';
  if (!schemes.length) warnings.add('/schemes', 'The file lists no `schemes`; https was assumed.');
  return finishBaseUrl(`${scheme}://${host}${path}`, '/host', warnings);
}

function paramSchema(p: Obj, ctx: Ctx): JsonSchema | null {
  const raw: Obj = {};
  for (const f of PARAM_SCHEMA_FIELDS) if (own(p, f) !== undefined) put(raw, f === 'x-example' ? 'example' : f, p[f]);
  return ctx.refs.schema(raw, ctx.budget, ctx.where);
}

interface ReadParams {
  params: EndpointParameter[];
  body: { required: boolean; schema: JsonSchema | null; example?: unknown } | null;
  form: { name: string; required: boolean; schema: JsonSchema | null; file: boolean }[];
}

function readParams(lists: unknown[], ctx: Ctx): ReadParams {
  const byKey = new Map<string, Obj>();
  for (const list of lists) {
    if (list === undefined) continue;
    const items = arr(list);
    if (!items) {
      ctx.warnings.add(ctx.where, '`parameters` is not a list; it was ignored.');
      continue;
    }
    items.slice(0, IMPORT_LIMITS.maxParameters).forEach((raw, i) => {
      const d = ctx.refs.deref(raw, ctx.where);
      if (!d.ok) return;
      const p = d.value;
      const name = str(own(p, 'name'));
      const place = str(own(p, 'in'));
      if (!isObject(p) || !name?.trim() || !place) {
        ctx.warnings.add(`${ctx.where}/parameters/${i}`, 'A parameter without a name or `in` was skipped.');
        return;
      }
      byKey.set(`${place}:${name}`, p);
    });
  }
  const out: ReadParams = { params: [], body: null, form: [] };
  for (const p of byKey.values()) {
    const name = clampText(p.name, IMPORT_LIMITS.maxParameterNameLength);
    const place = String(p.in);
    if (place === 'body') {
      const schema = ctx.refs.schema(p.schema, ctx.budget, ctx.where);
      const example = own(p, 'x-example') !== undefined ? ctx.refs.value(p['x-example'], ctx.budget) : undefined;
      out.body = { required: p.required === true, schema, ...(example !== undefined ? { example } : {}) };
    } else if (place === 'formData') {
      out.form.push({ name, required: p.required === true, schema: paramSchema(p, ctx), file: p.type === 'file' });
    } else if (SIMPLE_PLACES.has(place)) {
      if (place === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
      const param: EndpointParameter = {
        name,
        in: place as EndpointParameter['in'],
        required: place === 'path' ? true : p.required === true,
        schema: paramSchema(p, ctx),
      };
      if (own(p, 'x-example') !== undefined) param.example = ctx.refs.value(p['x-example'], ctx.budget);
      out.params.push(param);
    } else {
      ctx.warnings.add(ctx.where, `Parameter "${clampText(name, 100)}" was skipped: \`in\` must be path, query, header, body or formData.`);
    }
  }
  return out;
}

function requestBody(read: ReadParams, consumes: string[]): RequestBodySpec | null {
  if (read.body) {
    const spec: RequestBodySpec = {
      required: read.body.required,
      content_type: clampText(pickMediaType(consumes.filter((c) => !/form/i.test(c))) ?? 'application/json', 200),
      schema: read.body.schema,
    };
    if (read.body.example !== undefined) spec.example = read.body.example;
    return spec;
  }
  if (!read.form.length) return null;
  const multipart = read.form.some((f) => f.file) || consumes.some((c) => /multipart\/form-data/i.test(c));
  const properties: Obj = {};
  for (const f of read.form) put(properties, f.name, f.file ? { type: 'string', format: 'binary' } : (f.schema ?? {}));
  const required = read.form.filter((f) => f.required).map((f) => f.name);
  return {
    required: required.length > 0,
    content_type: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    schema: { type: 'object', properties, ...(required.length ? { required } : {}) },
  };
}

function readResponses(raw: unknown, produces: string[], ctx: Ctx): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  const map = obj(raw);
  if (!map) return out;
  for (const code of Object.keys(map).slice(0, IMPORT_LIMITS.maxResponses)) {
    if (!/^([1-5][0-9]{2}|default)$/i.test(code)) continue;
    const d = ctx.refs.deref(map[code], ctx.where);
    if (!d.ok || !isObject(d.value)) continue;
    const schema = d.value.schema === undefined ? null : ctx.refs.schema(d.value.schema, ctx.responseBudget, ctx.where);
    out[code.toLowerCase()] = {
      description: oneLine(d.value.description, IMPORT_LIMITS.maxSummaryLength),
      content_type: schema ? clampText(pickMediaType(produces) ?? 'application/json', 200) : null,
      schema,
    };
  }
  return out;
}

function readOperation(doc: Obj, method: string, path: string, op: unknown, pathParams: unknown, ctx: Ctx): ExtractedEndpoint {
  if (!isObject(op)) throw new SkipOperation('the operation is not an object');
  const read = readParams([pathParams, op.parameters], ctx);
  const consumes = op.consumes !== undefined ? strings(op.consumes) : strings(doc.consumes);
  const produces = op.produces !== undefined ? strings(op.produces) : strings(doc.produces);
  return {
    method: method.toUpperCase(),
    path,
    summary: clampText(op.summary, IMPORT_LIMITS.maxSummaryLength) || oneLine(op.description, IMPORT_LIMITS.maxSummaryLength),
    operation_id: str(op.operationId) ? clampText(op.operationId, IMPORT_LIMITS.maxOperationIdLength) || null : null,
    tags: readTags(op.tags),
    parameters: completeParameters(read.params, path, ctx.where, ctx.warnings),
    request_body: requestBody(read, consumes),
    responses: readResponses(op.responses, produces, ctx),
    security: normalizeSecurity(op.security, ctx.where, ctx.warnings),
  };
}

export function readSwagger2(doc: Obj, warnings: Warnings): SpecReading {
  const refs = new RefResolver(doc, warnings);
  const schemes = readSecuritySchemes(doc.securityDefinitions, '/securityDefinitions', warnings, (n, at) => {
    const d = refs.deref(n, at);
    return d.ok ? d.value : undefined;
  });
  const operations: PendingOperation[] = [];
  for (const { rawPath, path, item } of pathItems(doc, (n, at) => refs.deref(n, at), warnings)) {
    for (const method of HTTP_METHODS.filter((m) => own(item, m) !== undefined)) {
      const where = pathPointer(rawPath, method);
      operations.push({
        label: `${method.toUpperCase()} ${path}`,
        where,
        read: (budgets: Budgets) =>
          readOperation(doc, method, path, item[method], item.parameters, { refs, warnings, budget: budgets.request, responseBudget: budgets.responses, where }),
      });
    }
  }
  return {
    name: clampText(own(doc.info, 'title'), IMPORT_LIMITS.maxNameLength),
    baseUrl: baseUrlOf(doc, warnings),
    security: { schemes, default: normalizeSecurity(doc.security, '/security', warnings) ?? [] },
    operations,
  };
}
