// The real third-party APIs the detection benchmark scans (../shared/targets), and how a security
// engineer scans each one: its own description file, the identities its own documentation gives
// (bench/detect/<id>/scan.yaml, accounts made by bench/detect/<id>/setup.sh where it publishes none)
// and the CLI flags its README calls for. Target-specific knowledge lives here and in those files,
// never in the product.

import path from 'node:path';
import { ROOT } from '../../test/helpers/bundle';

export const TARGETS_DIR = path.resolve(ROOT, '../shared/targets');
export const BENCH_DIR = path.join(ROOT, 'bench/detect');

export type TargetId = 'vampi' | 'vapi' | 'tiredful' | 'juice-shop' | 'dvga';
export const TARGET_IDS: readonly TargetId[] = ['vampi', 'vapi', 'tiredful', 'juice-shop', 'dvga'];

/** One CLI scan of a target: a description file, the API's base below the target's origin, a scan.yaml. */
export interface ScanPlan {
  label: string;
  /** Relative to ../shared/targets/<dir>. */
  spec: string;
  /** The API's base path on the target's origin ('' for the origin itself). */
  basePath: string;
  /** Relative to bench/detect/<id>. */
  config: string;
  /** CLI flags besides --spec, --base-url, --config, --out, --quiet. */
  flags: string[];
  /** Why the flags differ from the other targets', for docs/detection.md. */
  flagsWhy?: string;
}

export interface DetectTarget {
  id: TargetId;
  /** Folder under ../shared/targets. */
  dir: string;
  name: string;
  /** Fetches URLs or runs commands: target and scanner run in a network namespace with loopback only. */
  isolate: boolean;
  /** bench/detect/<id>/setup.sh: accounts the scan's identities log in with, made before the scan. */
  setup: boolean;
  scans: ScanPlan[];
}

const RPS = ['--rps', '100'];

/** The four targets beside VAmPI (VAmPI runs through test/helpers/detect.ts, as its CI test does). */
export const EXTERNAL_TARGETS: readonly DetectTarget[] = [
  {
    id: 'vapi',
    dir: 'vapi',
    name: 'vAPI',
    isolate: true,
    setup: true,
    scans: [{ label: 'Postman collection', spec: 'src/postman/vAPI.postman_collection.json', basePath: '', config: 'scan.yaml', flags: RPS }],
  },
  {
    id: 'tiredful',
    dir: 'tiredful-api',
    name: 'Tiredful-API',
    isolate: true,
    setup: false,
    scans: [{ label: 'OpenAPI (hand-written from its URLconfs)', spec: 'openapi.yaml', basePath: '', config: 'scan.yaml', flags: RPS }],
  },
  {
    id: 'juice-shop',
    dir: 'juice-shop',
    name: 'OWASP Juice Shop',
    isolate: true,
    setup: true,
    scans: [
      { label: 'shop API (openapi.yaml)', spec: 'openapi.yaml', basePath: '', config: 'scan.yaml', flags: RPS },
      { label: 'B2B orders API (its own swagger.yml)', spec: 'src/swagger.yml', basePath: '/b2b/v2', config: 'scan-b2b.yaml', flags: RPS },
    ],
  },
  {
    id: 'dvga',
    dir: 'dvga',
    name: 'DVGA',
    isolate: true,
    setup: true,
    scans: [
      {
        label: 'GraphQL schema (SDL)',
        spec: 'schema.graphql',
        basePath: '',
        config: 'scan.yaml',
        flags: [...RPS, '--timeout-ms', '60000'],
        flagsWhy:
          "DVGA's README: one gevent worker, and a slow query holds up the requests queued behind it (systemUpdate sleeps 20-50 s without yielding), so requests may wait up to 60 s instead of the default 15 s.",
      },
    ],
  },
];

export function externalTarget(id: TargetId): DetectTarget | undefined {
  return EXTERNAL_TARGETS.find((t) => t.id === id);
}
