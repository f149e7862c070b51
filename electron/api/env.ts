// The Hono environment of the core: what the transport tells about the caller, and what the
// authentication middleware puts on the context.

import type { SessionRow } from '../store/sessions';
import type { UserRow } from '../store/users';

export type Transport = 'http' | 'ipc' | 'direct';

/** Passed by each transport as the second argument of app.fetch. */
export interface TransportInfo {
  transport: Transport;
  /** The peer's address (HTTP), or the transport name where there is none. */
  clientIp: string;
}

export interface AppEnv {
  Bindings: TransportInfo;
  Variables: {
    user: UserRow;
    session: SessionRow;
  };
}
