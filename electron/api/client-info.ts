// Who is calling, as far as the transport can tell: for session records and throttling.

import type { Context } from 'hono';
import type { ClientInfo } from '../accounts/service';
import type { AppEnv } from './env';

export function clientInfo(c: Context<AppEnv>): ClientInfo {
  return {
    client: c.req.header('user-agent') ?? c.env?.transport ?? null,
    ip: c.env?.clientIp ?? 'unknown',
  };
}
