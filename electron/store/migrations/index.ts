// The numbered migrations, in order. Add new ones at the end; never reorder landed ones or change the SQL
// they run on SQLite (migrations.test.ts holds 001-009 to a snapshot; only dialect routing was added).

import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';
import * as m001 from './001-initial';
import * as m002 from './002-scan-history-indexes';
import * as m003 from './003-scan-engine';
import * as m004 from './004-vulnerability-counts';
import * as m005 from './005-schedule-runs';
import * as m006 from './006-two-factor';
import * as m007 from './007-login-throttle';
import * as m008 from './008-api-stored-bytes';
import * as m009 from './009-finding-triage';
import * as m010 from './010-scan-sequence';
import * as m011 from './011-one-running-scan';
import * as m012 from './012-scan-leases';
import * as m013 from './013-recent-scans-order';
import * as m014 from './014-graphql-operations';
import * as m015 from './015-scan-coverage';
import * as m016 from './016-scan-traffic';
import * as m017 from './017-finding-retests';
import * as m018 from './018-identity-setups';
import * as m019 from './019-finding-proofs';

/** A numbered migration: its `up` step gets the database's dialect (database.ts passes it). */
export interface StoreMigration {
  up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void>;
}

export const migrations: Record<string, StoreMigration> = {
  '001-initial': m001,
  '002-scan-history-indexes': m002,
  '003-scan-engine': m003,
  '004-vulnerability-counts': m004,
  '005-schedule-runs': m005,
  '006-two-factor': m006,
  '007-login-throttle': m007,
  '008-api-stored-bytes': m008,
  '009-finding-triage': m009,
  '010-scan-sequence': m010,
  '011-one-running-scan': m011,
  '012-scan-leases': m012,
  '013-recent-scans-order': m013,
  '014-graphql-operations': m014,
  '015-scan-coverage': m015,
  '016-scan-traffic': m016,
  '017-finding-retests': m017,
  '018-identity-setups': m018,
  '019-finding-proofs': m019,
};
