// One log line per call: method, path (never the query string or body), status, duration, and the
// client's address (behind trusted proxies the forwarded one: server.ts).

import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../log';
import type { AppEnv } from '../env';

export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.debug('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
      via: c.env?.transport,
      ip: c.env?.clientIp,
    });
  };
}
