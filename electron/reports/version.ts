// The tool version written into exports (SARIF driver, JSON generator): the package version.

import pkg from '../../package.json';

export const TOOL_VERSION: string = (pkg as { version?: string }).version ?? '0.0.0';
