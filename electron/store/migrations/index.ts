// The numbered migrations, in order. Add new ones at the end; never edit or reorder landed ones.

import type { Migration } from 'kysely';
import * as m001 from './001-initial';
import * as m002 from './002-scan-history-indexes';
import * as m003 from './003-scan-engine';
import * as m004 from './004-vulnerability-counts';
import * as m005 from './005-schedule-runs';
import * as m006 from './006-two-factor';
import * as m007 from './007-login-throttle';
import * as m008 from './008-api-stored-bytes';
import * as m009 from './009-finding-triage';

export const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-scan-history-indexes': m002,
  '003-scan-engine': m003,
  '004-vulnerability-counts': m004,
  '005-schedule-runs': m005,
  '006-two-factor': m006,
  '007-login-throttle': m007,
  '008-api-stored-bytes': m008,
  '009-finding-triage': m009,
};
