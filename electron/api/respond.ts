// The success envelope: { success: true, message, data }.

import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './env';

export function ok<T>(c: Context<AppEnv>, message: string, data?: T, status: ContentfulStatusCode = 200): Response {
  return c.json(data === undefined ? { success: true, message } : { success: true, message, data }, status);
}
