// OpenAPI 3.0 / 3.1 (and later 3.x, read as 3.1) -> API and endpoints.

import type { EndpointParameter, RequestBodySpec, ResponseSpec } from '../../shared/contract';
import {
  completeParameters,
  fillServerVariables,
  finishBaseUrl,
  IGNORED_HEADERS,
  normalizeSecurity,
  pathItems,
  pathPointer,
  pickMediaType,
  readSecuritySchemes,
  readTags,
} from './openapi-common';
import { IMPORT_LIMITS } from './limits';
import { RefResolver, type Budget, type Budgets } from './resolve-refs';
import { HTTP_METHODS, type ExtractedEndpoint } from './result';
import { SkipOperation } from './errors';
import type { Warnings } from './warnings';
import { arr, clampText, isObject, obj, oneLine, own, str, type Obj } from './values';
import type { PendingOperation, SpecReading } from './read-spec';

const PARAMETER_PLACES = new Set(['path', 'query', 'header', 'cookie']);

interface OperationContext {
  refs: RefResolver;
  warnings: Warnings;
  budget: Budget;
  responseBudget: Budget;
  where: string;
}

function firstExample(media: Obj, ctx: OperationContext): unknown {
  if (own(media, 'example') !== undefined) return ctx.refs.value(media.example, ctx.budget);
  const examples = obj(own(media, 'examples'));
  if (examples) {
    for (const key of Object.keys(examples)) {
      const ex = ctx.refs.deref(examples[key], ctx.where);
      if (ex.ok && isObject(ex.value) && own(ex.value, 'value') !== undefined) return ctx.refs.value(ex.value.value, ctx.budget);
    }
  }
  return undefined;
}

function readParameter(raw: unknown, index: number, ctx: OperationContext): EndpointParameter | null {
  const at = `${ctx.where}/parameters/${index}`;
  const d = ctx.refs.deref(raw, ctx.where);
  if (!d.ok) return null;
  const p = d.value;
  if (!isObject(p)) {
    ctx.warnings.add(at, 'A parameter that is not an object was skipped.');
    return null;
  }
  const name = str(p.name);
  const place = str(p.in);
  if (!name || !name.trim()) {
    ctx.warnings.add(at, 'A parameter without a name was skipped.');
    return null;
  }
  if (!place || !PARAMETER_PLACES.has(place)) {
    ctx.warnings.add(at, `Parameter "${clampText(name, 100)}" was skipped: \`in\` must be path, query, header or cookie.`);
    return null;
  }
  if (place === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return null;
  let schemaNode: unknown = p.schema;
  let example: unknown = own(p, 'example') !== undefined ? ctx.refs.value(p.example, ctx.budget) : undefined;
  const content = obj(p.content);
  if (schemaNode === undefined && content) {
    const type = pickMediaType(Object.keys(content));
    const media = type ? obj(content[type]) : undefined;
    if (media) {
      schemaNode = media.schema;
      if (example === undefined) example = firstExample(media, ctx);
    }
  }
  if (example === undefined && obj(p.examples)) example = firstExample({ examples: p.examples }, ctx);
  const param: EndpointParameter = {
    name: clampText(name, IMPORT_LIMITS.maxParameterNameLength),
    in: place as EndpointParameter['in'],
    required: place === 'path' ? true : p.required === true,
    schema: ctx.refs.schema(schemaNode, ctx.budget, ctx.where),
  };
  if (example !== undefined) param.example = example;
  return param;
}

function readParameters(list: unknown, ctx: OperationContext): EndpointParameter[] {
  const items = arr(list);
  if (list !== undefined && !items) ctx.warnings.add(ctx.where, '`parameters` is not a list; it was ignored.');
  const out: EndpointParameter[] = [];
  (items ?? []).slice(0, IMPORT_LIMITS.maxParameters).forEach((raw, i) => {
    const p = readParameter(raw, i, ctx);
    if (p) out.push(p);
  });
  return out;
}

function readRequestBody(raw: unknown, ctx: OperationContext): RequestBodySpec | null {
  if (raw === undefined) return null;
  const d = ctx.refs.deref(raw, ctx.where);
  if (!d.ok || !isObject(d.value)) return null;
  const body = d.value;
  const content = obj(body.content) ?? {};
  const type = pickMediaType(Object.keys(content));
  const media = type ? obj(content[type]) : undefined;
  const spec: RequestBodySpec = {
    required: body.required === true,
    content_type: clampText(type ?? 'application/json', 200),
    schema: media ? ctx.refs.schema(media.schema, ctx.budget, ctx.where) : null,
  };
  const example = media ? firstExample(media, ctx) : undefined;
  if (example !== undefined) spec.example = example;
  return spec;
}

function readResponses(raw: unknown, ctx: OperationContext): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  const map = obj(raw);
  if (!map) return out;
  for (const code of Object.keys(map).slice(0, IMPORT_LIMITS.maxResponses)) {
    if (!/^([1-5]([0-9]{2}|XX)|default)$/i.test(code)) continue;
    const d = ctx.refs.deref(map[code], ctx.where);
    if (!d.ok || !isObject(d.value)) continue;
    const content = obj(d.value.content) ?? {};
    const type = pickMediaType(Object.keys(content));
    const media = type ? obj(content[type]) : undefined;
    out[code.toUpperCase() === 'DEFAULT' ? 'default' : code.toUpperCase()] = {
      description: oneLine(d.value.description, IMPORT_LIMITS.maxSummaryLength),
      content_type: type ? clampText(type, 200) : null,
      schema: media ? ctx.refs.schema(media.schema, ctx.responseBudget, ctx.where) : null,
    };
  }
  return out;
}

function readOperation(method: string, path: string, op: unknown, pathParams: unknown, ctx: OperationContext): ExtractedEndpoint {
  if (!isObject(op)) throw new SkipOperation('the operation is not an object');
  const params = [...readParameters(pathParams, { ...ctx, where: ctx.where.replace(/\/[^/]+$/, '') }), ...readParameters(op.parameters, ctx)];
  return {
    method: method.toUpperCase(),
    path,
    summary: clampText(op.summary, IMPORT_LIMITS.maxSummaryLength) || oneLine(op.description, IMPORT_LIMITS.maxSummaryLength),
    operation_id: str(op.operationId) ? clampText(op.operationId, IMPORT_LIMITS.maxOperationIdLength) || null : null,
    tags: readTags(op.tags),
    parameters: completeParameters(params, path, ctx.where, ctx.warnings),
    request_body: readRequestBody(op.requestBody, ctx),
    responses: readResponses(op.responses, ctx),
    security: normalizeSecurity(op.security, ctx.where, ctx.warnings),
  };
}

/**
 * The server of a `servers` list to scan: the first, unless it is http:// and an https:// one
 * follows (then that one, with a warning). `where` is the list's pointer ("/servers").
 */
function pickServer(list: unknown[], where: string, warnings: Warnings): { url: string; at: string } {
  const urlOf = (i: number) => str(own(obj(list[i]), 'url'))?.trim() ?? '';
  let index = 0;
  if (/^http:\/\//i.test(urlOf(0))) {
    const secure = list.slice(0, 50).findIndex((_, i) => /^https:\/\/[^/]/i.test(urlOf(i)));
    if (secure > 0) {
      index = secure;
      warnings.add(
        `${where}/${secure}`,
        `Server ${secure + 1} ("${clampText(urlOf(secure), 200)}") was chosen over the first one ("${clampText(urlOf(0), 200)}") because it uses https.`,
      );
    }
  }
  const at = `${where}/${index}`;
  return { url: fillServerVariables(urlOf(index), own(obj(list[index]), 'variables'), at, warnings), at };
}

/** A server URL as compared with the base URL: trailing slashes dropped. */
const sameBase = (url: string): string => url.replace(/\/+$/, '');

export function readOpenApi3(doc: Obj, minor: number, warnings: Warnings): SpecReading {
  const refs = new RefResolver(doc, warnings);
  const info = obj(doc.info);
  const top = pickServer(arr(doc.servers) ?? [], '/servers', warnings);
  const baseUrl = finishBaseUrl(top.url, `${top.at}/url`, warnings);
  const components = obj(doc.components);
  const schemes = readSecuritySchemes(own(components, 'securitySchemes'), '/components/securitySchemes', warnings, (n, at) => {
    const d = refs.deref(n, at);
    return d.ok ? d.value : undefined;
  });
  const security = { schemes, default: normalizeSecurity(doc.security, '/security', warnings) ?? [] };

  const methods: string[] = [...HTTP_METHODS, ...(minor >= 2 ? ['query'] : [])];
  const operations: PendingOperation[] = [];
  for (const { rawPath, path, item } of pathItems(doc, (n, at) => refs.deref(n, at), warnings)) {
    const candidates: [string, unknown][] = methods.filter((m) => own(item, m) !== undefined).map((m) => [m, item[m]]);
    const extra = minor >= 2 ? obj(item.additionalOperations) : undefined;
    for (const m of Object.keys(extra ?? {})) if (/^[A-Za-z]{1,20}$/.test(m)) candidates.push([m, extra![m]]);
    // Servers of the path item or an operation: the API has one base URL, so an operation whose
    // server is another one is scanned at the wrong base unless its server only adds a path prefix.
    const itemServers = arr(item.servers)?.length ? (arr(item.servers) as unknown[]) : undefined;
    const elsewhere = new Map<string, { url: string; labels: string[] }>();
    for (const [method, op] of candidates) {
      const where = pathPointer(rawPath, method);
      let opPath = path;
      const opServers = arr(own(op, 'servers'))?.length ? (arr(own(op, 'servers')) as unknown[]) : undefined;
      const listAt = opServers ? `${where}/servers` : itemServers ? `${pathPointer(rawPath)}/servers` : undefined;
      if (listAt) {
        const url = sameBase(clampText(pickServer(opServers ?? itemServers!, listAt, warnings).url, IMPORT_LIMITS.maxBaseUrlLength));
        if (baseUrl && url.toLowerCase().startsWith(`${baseUrl.toLowerCase()}/`) && !/[?#{}]/.test(url)) {
          opPath = `${url.slice(baseUrl.length)}${path === '/' ? '' : path}`;
        } else if (url.toLowerCase() !== baseUrl.toLowerCase()) {
          const entry = elsewhere.get(listAt) ?? { url, labels: [] };
          entry.labels.push(`${method.toUpperCase()} ${path}`);
          elsewhere.set(listAt, entry);
        }
      }
      const callbacks = Object.keys(obj(own(op, 'callbacks')) ?? {}).filter((k) => !k.startsWith('x-'));
      if (callbacks.length) {
        const names = callbacks.slice(0, 10).map((k) => `"${clampText(k, 100)}"`).join(', ');
        warnings.add(
          `${where}/callbacks`,
          `Callback${callbacks.length === 1 ? '' : 's'} ${names}${callbacks.length > 10 ? ` and ${callbacks.length - 10} more` : ''} of ${method.toUpperCase()} ${clampText(path, 200)} ${callbacks.length === 1 ? 'was' : 'were'} not imported as endpoints: callbacks are requests the API sends, not endpoints it serves.`,
        );
      }
      operations.push({
        label: `${method.toUpperCase()} ${opPath}`,
        where,
        read: (budgets: Budgets) =>
          readOperation(method, opPath, op, item.parameters, { refs, warnings, budget: budgets.request, responseBudget: budgets.responses, where }),
      });
    }
    for (const [at, { url, labels }] of elsewhere) {
      const one = labels.length === 1;
      warnings.add(
        at,
        `${one ? 'Operation' : 'Operations'} ${labels.map((l) => clampText(l, 200)).join(', ')} ${one ? 'has its' : 'have their'} own server ` +
          `"${clampText(url, 200)}" but will be scanned at the API's base URL "${clampText(baseUrl, 200)}"; import ${one ? 'it' : 'them'} ` +
          'as a separate API with that base URL to scan the right server.',
      );
    }
  }
  const webhooks = obj(doc.webhooks);
  if (webhooks) {
    let count = 0;
    for (const name of Object.keys(webhooks)) {
      const d = refs.deref(webhooks[name], '/webhooks');
      const item = d.ok ? obj(d.value) : undefined;
      count += methods.filter((m) => own(item, m) !== undefined).length;
    }
    if (count)
      warnings.add(
        '/webhooks',
        `${count} webhook operation${count === 1 ? ' was' : 's were'} not imported as endpoints: webhooks are requests the API sends, not endpoints it serves.`,
      );
  }
  return {
    name: clampText(own(info, 'title'), IMPORT_LIMITS.maxNameLength),
    baseUrl,
    security,
    operations,
  };
}
