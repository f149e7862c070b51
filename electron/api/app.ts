// The /api/* core: one Hono app, `app.fetch(Request, TransportInfo) -> Response`, served over
// HTTP by the team server, over IPC by the desktop shell, and called directly by the CLI.

import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { IMPORT_MAX_BYTES } from '../../shared/constants';
import { SERVER_MESSAGES } from '../../shared/messages';
import type { Services } from '../services';
import { databaseTroubleOf, RETRY_AFTER_SECONDS } from '../store/health';
import { isClientAbort } from './client-abort';
import type { AppEnv } from './env';
import { ApiError } from './errors';
import { requestLog } from './middleware/request-log';
import { requireSession, userIdGuard } from './middleware/session';
import { registerApiRoutes } from './routes/apis';
import { registerAuthRoutes } from './routes/auth';
import { registerEndpointRoutes } from './routes/endpoints';
import { registerEventRoutes } from './routes/events';
import { registerPublicRoutes } from './routes/public';
import { registerFindingRoutes } from './routes/findings';
import { registerScanRoutes } from './routes/scans';
import { registerReportRoutes } from './routes/reports';
import { registerScheduleRoutes } from './routes/schedules';
import { registerSecurityRoutes } from './routes/security';
import { registerShareRoutes } from './routes/shares';
import { registerUserRoutes } from './routes/user';

/** Calls that need no session (DESIGN.md section 2). Everything else under /api does. */
export const PUBLIC_ROUTES = new Set([
  'POST /api/auth/login',
  'POST /api/auth/login/2fa',
  'POST /api/auth/signup',
  'POST /api/auth/google-login',
  'POST /api/auth/oidc/start',
  'POST /api/auth/oidc/callback',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'GET /api/stats/platform',
  'GET /api/environment',
  'GET /api/health',
]);

/** Routes that take file uploads, with their own, larger body limit. */
const UPLOAD_ROUTES = new Set(['/api/import']);
/** Room for the multipart envelope around a file at the limit. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** Route modules, one per area; each registers its handlers on the app. */
const ROUTE_MODULES: ((app: Hono<AppEnv>, s: Services) => void)[] = [
  registerAuthRoutes,
  registerUserRoutes,
  registerPublicRoutes,
  registerScanRoutes,
  registerFindingRoutes,
  registerShareRoutes,
  registerReportRoutes,
  registerScheduleRoutes,
  registerApiRoutes,
  registerEndpointRoutes,
  registerEventRoutes,
  registerSecurityRoutes,
];

const isPublic = (method: string, path: string): boolean =>
  PUBLIC_ROUTES.has(`${method === 'HEAD' ? 'GET' : method} ${path.replace(/\/+$/, '') || '/'}`);

export function createApp(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const jsonLimit = bodyLimit({
    maxSize: s.config.jsonBodyLimitBytes,
    onError: () => {
      throw new ApiError(413, SERVER_MESSAGES.bodyTooLarge);
    },
  });
  const uploadLimit = bodyLimit({
    maxSize: IMPORT_MAX_BYTES + MULTIPART_OVERHEAD,
    onError: () => {
      throw new ApiError(413, SERVER_MESSAGES.importTooLarge);
    },
  });
  const session = requireSession(s.accounts);

  const apiHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
  };

  app.use('/api/*', requestLog(s.logger));
  app.use('/api/*', apiHeaders);
  app.use('/api/*', (c, next) => (UPLOAD_ROUTES.has(c.req.path) ? uploadLimit(c, next) : jsonLimit(c, next)));
  app.use('/api/*', async (c, next) => {
    if (isPublic(c.req.method, c.req.path)) return next();
    return session(c, async () => {
      await userIdGuard(c, next);
    });
  });

  for (const register of ROUTE_MODULES) register(app, s);

  app.notFound((c) => c.json({ success: false, message: SERVER_MESSAGES.notFound }, 404));

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
      // The unread rest of an oversized body makes the connection unusable: tell the client.
      if (err.status === 413) c.header('Connection', 'close');
      return c.json(
        err.errors?.length ? { success: false, message: err.message, errors: err.errors } : { success: false, message: err.message },
        err.status,
      );
    }
    if (err instanceof HTTPException && err.status < 500) {
      return c.json({ success: false, message: err.message || SERVER_MESSAGES.internal }, err.status);
    }
    if (isClientAbort(err, c.req.raw.signal)) {
      // The client hung up mid-body: one line, no stack, and nothing worth sending.
      s.logger.warn('Client aborted the request body', { method: c.req.method, path: c.req.path });
      return c.body(null, 400, { Connection: 'close' });
    }
    const trouble = databaseTroubleOf(err);
    if (trouble) {
      // The store logs an outage once (store/health.ts); a request that meets it is one line at debug.
      s.logger.debug('Request refused: the database is not answering', { method: c.req.method, path: c.req.path, trouble });
      c.header('Retry-After', String(RETRY_AFTER_SECONDS[trouble]));
      return c.json({ success: false, message: trouble === 'busy' ? SERVER_MESSAGES.databaseBusy : SERVER_MESSAGES.databaseUnavailable }, 503);
    }
    s.logger.error('Unhandled error', { method: c.req.method, path: c.req.path, error: err });
    return c.json({ success: false, message: SERVER_MESSAGES.internal }, 500);
  });

  return app;
}
