// /api/apis*, /api/import*: the API list, imports from a file, a URL or typed by hand, edit and delete.
// Identity comes from the session only; per-API rights follow spec section 6 (access.ts).

import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { APIS_MESSAGES } from '../../../shared/api-messages';
import { IMPORT_MAX_BYTES, LIMITS } from '../../../shared/constants';
import type { ImportData } from '../../../shared/contract';
import { API_MESSAGES, SERVER_MESSAGES } from '../../../shared/messages';
import { identitySchema } from '../../../shared/identities';
import { isHttpUrl, singleLine } from '../../../shared/validation';
import { ImportError, ImportTooLargeError, type ImportResult, type PreparedImport } from '../../importer/index';
import { importRunner, ImportsBusyError } from '../../importer/import-runner';
import { IMPORT_LIMITS } from '../../importer/limits';
import { buildManualApi, MANUAL_METHODS, normalizeManualPath } from '../../importer/manual-api';
import { storeImport } from '../../importer/store-import';
import { SpecUrlRefusedError } from '../../scanner/spec-url-import';
import { QuotaExceededError, quotaRefusal } from '../../store/quotas';
import type { Services } from '../../services';
import { requireApiAccess } from '../access';
import { isClientAbort } from '../client-abort';
import type { AppEnv } from '../env';
import { ApiError, badRequest, serviceUnavailable, validationError } from '../errors';
import { formBody, idField, parseBody } from '../input';
import { ok } from '../respond';
import { asApiError } from '../scan-errors';

const MAX_MANUAL_ENDPOINTS = 1_000;

const baseUrlField = z
  .string({ error: APIS_MESSAGES.baseUrlRequired })
  .trim()
  .min(1, { error: APIS_MESSAGES.baseUrlRequired })
  .max(LIMITS.urlMax, { error: APIS_MESSAGES.baseUrlTooLong })
  .refine(isHttpUrl, { error: APIS_MESSAGES.baseUrlInvalid });

const graphqlImportSchema = z.object({
  url: z
    .string({ error: APIS_MESSAGES.graphqlUrlRequired })
    .trim()
    .min(1, { error: APIS_MESSAGES.graphqlUrlRequired })
    .max(LIMITS.urlMax, { error: APIS_MESSAGES.graphqlUrlTooLong })
    .refine(isHttpUrl, { error: APIS_MESSAGES.graphqlUrlInvalid }),
  name: z.string().overwrite(singleLine).trim().max(IMPORT_LIMITS.maxNameLength, { error: APIS_MESSAGES.nameTooLong }).optional(),
  identity: identitySchema.nullish(),
});

const urlImportSchema = z.object({
  url: z
    .string({ error: APIS_MESSAGES.specUrlRequired })
    .trim()
    .min(1, { error: APIS_MESSAGES.specUrlRequired })
    .max(LIMITS.urlMax, { error: APIS_MESSAGES.specUrlTooLong })
    .refine(isHttpUrl, { error: APIS_MESSAGES.specUrlInvalid }),
});

const manualSchema = z.object({
  name: z
    .string({ error: APIS_MESSAGES.nameRequired })
    .overwrite(singleLine)
    .trim()
    .min(1, { error: APIS_MESSAGES.nameRequired })
    .max(IMPORT_LIMITS.maxNameLength, { error: APIS_MESSAGES.nameTooLong }),
  base_url: baseUrlField,
  endpoints: z
    .array(
      z.object(
        {
          method: z
            .string({ error: APIS_MESSAGES.methodInvalid })
            .trim()
            .transform((m) => m.toUpperCase())
            .refine((m) => (MANUAL_METHODS as readonly string[]).includes(m), { error: APIS_MESSAGES.methodInvalid }),
          path: z
            .string({ error: APIS_MESSAGES.pathRequired })
            .trim()
            .min(1, { error: APIS_MESSAGES.pathRequired })
            .max(IMPORT_LIMITS.maxPathLength, { error: APIS_MESSAGES.pathTooLong })
            .refine((p) => p.startsWith('/') && !/[\s?#]/.test(p), { error: APIS_MESSAGES.pathInvalid }),
          summary: z
            .string({ error: APIS_MESSAGES.summaryTooLong })
            .trim()
            .max(IMPORT_LIMITS.maxSummaryLength, { error: APIS_MESSAGES.summaryTooLong })
            .optional()
            .transform((s) => s ?? ''),
        },
        { error: APIS_MESSAGES.pathRequired },
      ),
      { error: APIS_MESSAGES.endpointsRequired },
    )
    .min(1, { error: APIS_MESSAGES.endpointsRequired })
    .max(MAX_MANUAL_ENDPOINTS, { error: APIS_MESSAGES.tooManyEndpoints(MAX_MANUAL_ENDPOINTS) }),
});

const updateSchema = z.object({
  api_id: idField('api_id'),
  updates: z.object(
    {
      title: z
        .string({ error: APIS_MESSAGES.titleRequired })
        .overwrite(singleLine)
        .trim()
        .min(1, { error: APIS_MESSAGES.titleRequired })
        .max(IMPORT_LIMITS.maxNameLength, { error: APIS_MESSAGES.titleTooLong })
        .optional(),
      base_url: baseUrlField.optional(),
    },
    { error: APIS_MESSAGES.updatesRequired },
  ),
});

const apiIdSchema = z.object({ api_id: idField('api_id') });

/** The uploaded file's name as the message shows it: no folders, no control characters, bounded. */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean || 'upload';
}

async function readUpload(c: Context<AppEnv>): Promise<File> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (!type.includes('multipart/form-data')) throw badRequest(APIS_MESSAGES.notMultipart, 'file');
  let form: Record<string, unknown>;
  try {
    form = await formBody(c);
  } catch (err) {
    if (isClientAbort(err, c.req.raw.signal)) throw err;
    throw badRequest(APIS_MESSAGES.notMultipart, 'file');
  }
  const file = form.file;
  if (Array.isArray(file)) throw badRequest(APIS_MESSAGES.oneFileOnly, 'file');
  if (!(file instanceof File) || !file.name) throw badRequest(API_MESSAGES.selectFile, 'file');
  if (file.size > IMPORT_MAX_BYTES) throw new ApiError(413, SERVER_MESSAGES.importTooLarge);
  if (file.size === 0) throw badRequest(APIS_MESSAGES.fileEmpty, 'file');
  return file;
}

/** What an import's failure answers: 413 for too large or too costly to read, 400 for what is wrong in it, 503 while the workers are all busy. */
function importRefusal(err: unknown, field: string): unknown {
  if (err instanceof SpecUrlRefusedError) return new ApiError(403, err.message);
  if (err instanceof ImportTooLargeError) return new ApiError(413, err.message);
  if (err instanceof ImportError) return badRequest(err.message, field);
  if (err instanceof ImportsBusyError) return serviceUnavailable(30, err.message);
  return err;
}

/** A quota refusal (issue 18, item 6) is 413: this request would make the user's APIs too large; waiting does not help. */
function quotaError(err: QuotaExceededError): ApiError {
  return new ApiError(413, err.message);
}

export function registerApiRoutes(app: Hono<AppEnv>, s: Services): void {
  async function created(c: Context<AppEnv>, result: ImportResult | PreparedImport, filename: string | null, message: string): Promise<Response> {
    const me = c.get('user');
    let apiId: string;
    try {
      // The definitive check runs inside the transaction that writes the API (store/apis.ts).
      apiId = await storeImport(s.repos, { ownerId: me.id, result, filename, now: s.clock.now(), quotas: s.config.quotas });
    } catch (err) {
      if (err instanceof QuotaExceededError) {
        s.logger.info('API refused by quota', { userId: me.id, quota: err.kind, limit: err.limit, used: err.used, adding: err.adding });
        throw quotaError(err);
      }
      throw err;
    }
    const api = await s.repos.apis.summary(me.id, apiId);
    const data: ImportData = { api: api!, endpoint_count: result.endpoints.length, warnings: result.warnings, format: result.format };
    s.logger.info('API imported', { apiId, format: result.format, endpoints: result.endpoints.length, warnings: result.warnings.length });
    return ok(c, message, data, 201);
  }

  app.get('/api/apis', async (c) => ok(c, APIS_MESSAGES.listed, { apis: await s.repos.apis.listVisible(c.get('user').id) }));

  app.post('/api/import', async (c) => {
    // A user already at a limit is refused before the file is read and parsed.
    const full = quotaRefusal(s.config.quotas, await s.repos.quotas.usage(c.get('user').id));
    if (full) throw quotaError(full);
    const file = await readUpload(c);
    const filename = cleanFilename(file.name);
    let result: PreparedImport;
    try {
      // Read in a worker thread (import-runner.ts), the file's bytes too: a large file costs the loop nothing and its memory is bounded.
      result = await importRunner().importDocument(file, {
        filename,
        onUnexpectedError: (error, operation) => s.logger.warn('Import skipped an operation after an unexpected error', { operation, error }),
      });
    } catch (err) {
      throw importRefusal(err, 'file');
    }
    return created(c, result, filename, API_MESSAGES.imported(filename));
  });

  // A live GraphQL endpoint, imported by introspection through the scan engine (scope and local-target
  // rules of a scan), as the caller's identity when given; nothing of the identity is stored.
  app.post('/api/import/graphql', async (c) => {
    const input = await parseBody(c, graphqlImportSchema);
    const full = quotaRefusal(s.config.quotas, await s.repos.quotas.usage(c.get('user').id));
    if (full) throw quotaError(full);
    let result: PreparedImport;
    try {
      result = await s.scans.introspectGraphql({ url: input.url, name: input.name, identity: input.identity ?? null }).catch(asApiError);
    } catch (err) {
      throw importRefusal(err, 'url');
    }
    return created(c, result, null, APIS_MESSAGES.graphqlImported(result.name, result.endpoints.length));
  });

  // An API description at a URL (the API's own /openapi.json), fetched under the scan rules: on a team
  // server without local scans, loopback and private addresses are refused (scanner/spec-url-import.ts).
  app.post('/api/import/url', async (c) => {
    const input = await parseBody(c, urlImportSchema);
    const full = quotaRefusal(s.config.quotas, await s.repos.quotas.usage(c.get('user').id));
    if (full) throw quotaError(full);
    let result: PreparedImport;
    try {
      result = await s.scans.importSpecUrl(input.url).catch(asApiError);
    } catch (err) {
      throw importRefusal(err, 'url');
    }
    return created(c, result, null, APIS_MESSAGES.specUrlImported(result.name, result.endpoints.length));
  });

  app.post('/api/apis/manual', async (c) => {
    const input = await parseBody(c, manualSchema);
    const seen = new Map<string, number>();
    input.endpoints.forEach((e, i) => {
      const key = `${e.method} ${normalizeManualPath(e.path)}`;
      if (seen.has(key))
        throw validationError([{ field: `endpoints.${i}.path`, message: APIS_MESSAGES.duplicateEndpoint(e.method, normalizeManualPath(e.path)) }]);
      seen.set(key, i);
    });
    const result = buildManualApi(input);
    return created(c, result, null, APIS_MESSAGES.manualCreated(result.name, result.endpoints.length));
  });

  app.put('/api/apis/update', async (c) => {
    const input = await parseBody(c, updateSchema);
    const { title, base_url: baseUrl } = input.updates;
    if (title === undefined && baseUrl === undefined) throw badRequest(APIS_MESSAGES.nothingToUpdate, 'updates');
    const me = c.get('user');
    const { api } = await requireApiAccess(s.repos, me.id, input.api_id, 'admin');
    await s.repos.apis.update(api.id, { name: title, baseUrl: baseUrl?.replace(/\/+$/, '') }, s.clock.now());
    return ok(c, API_MESSAGES.updated, { api: (await s.repos.apis.summary(me.id, api.id))! });
  });

  app.delete('/api/apis/delete', async (c) => {
    const input = await parseBody(c, apiIdSchema);
    const { api } = await requireApiAccess(s.repos, c.get('user').id, input.api_id, 'admin');
    const scans = await s.repos.scans.listForApi(api.id);
    const setups = await s.scans.setupSecretsOf(api.id);
    await s.repos.apis.delete(api.id);
    // Its scans went with it: so do their keys and the passwords of the users they registered, and the identity setups kept for it.
    await s.scans.forgetScans(scans.map((x) => x.id));
    await s.scans.forgetSetupSecrets(setups);
    s.logger.info('API deleted', { apiId: api.id });
    return ok(c, API_MESSAGES.deleted(api.name));
  });
}
