// API8:2023 Security Misconfiguration: missing or weak security headers, and version disclosure.


import type { Endpoint } from '../../../../shared/contract';
import { headerCheck } from '../common/helpers';
import type { Exchange } from '../../http/exchange';
import type { CheckContext } from '../types';
import { personalData } from '../common/personal-data';
import { OWASP_API8 } from '../common/references';

const HEADER_REFS = [
  OWASP_API8,
  'https://cheatsheetseries.owasp.org/cheatsheets/REST_Security_Cheat_Sheet.html#security-headers',
  'https://owasp.org/www-project-secure-headers/',
];

/** Authenticated: key 1 gets it and a request without credentials is refused. */
async function authenticatedResponse(ctx: CheckContext, endpoint: Endpoint): Promise<boolean> {
  const anon = await ctx.baseline('anonymous', endpoint);
  return anon?.status === 401 || anon?.status === 403;
}

const VERSION = /\d+\.\d+/;

function noStoreMissing(ex: Exchange): string | null {
  const v = ex.header('cache-control');
  return v?.toLowerCase().includes('no-store') ? null : v ? `Cache-Control: ${v}` : 'Cache-Control absent';
}

export const securityHeaders = headerCheck({
  id: 'api8-security-headers',
  protocols: ['rest', 'graphql'],
  title: 'Security headers missing or revealing',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-693',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
  safety: 'safe',
  budget: 0,
  description:
    'Reads the headers of each endpoint\'s successful key-1 response (no extra requests): X-Content-Type-Options: nosniff on every response, ' +
    'Cache-Control: no-store on authenticated responses (key 1 gets them, a request without credentials is refused; low where they carry personal ' +
    'or secret data, information otherwise), Strict-Transport-Security ' +
    'over HTTPS, and version numbers in Server / X-Powered-By. One finding per header problem for the whole API, listing the endpoints.',
  remediation:
    'Set the headers once, in the API gateway or a shared middleware: `X-Content-Type-Options: nosniff` everywhere, `Cache-Control: no-store` on ' +
    'responses that carry user data, `Strict-Transport-Security: max-age=31536000; includeSubDomains` over HTTPS, and no product versions in ' +
    '`Server` or `X-Powered-By`.',
  references: HEADER_REFS,
  rules: [
    {
      id: 'x-content-type-options',
      name: 'X-Content-Type-Options: nosniff missing',
      confidence: 'high',
      cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
      description:
        'Responses do not carry `X-Content-Type-Options: nosniff`, so browsers may guess a different content type than the API declared ' +
        '(e.g. render a JSON body holding user input as HTML).',
      recommendation: 'Send `X-Content-Type-Options: nosniff` on every response.',
      // Only responses with content can be sniffed.
      applies: (ex) => ex.body.length > 0,
      inspect: (ex) => {
        const v = ex.header('x-content-type-options');
        return v?.toLowerCase().includes('nosniff') ? null : v ? `X-Content-Type-Options: ${v}` : 'header absent';
      },
    },
    // A risk where the answer carries personal or secret data; a remark on other authenticated answers.
    {
      id: 'cache-control-no-store',
      name: 'Authenticated responses may be cached',
      confidence: 'high',
      cvss: 'CVSS:3.1/AV:L/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
      description:
        'Responses that need credentials (a request without them is refused) and carry personal or secret data do not carry ' +
        '`Cache-Control: no-store`, so browsers and intermediaries may keep copies of that data.',
      recommendation: 'Send `Cache-Control: no-store` on every response that carries user data.',
      applies: async (ex, endpoint, ctx) => endpoint.method === 'GET' && personalData(ex) !== null && (await authenticatedResponse(ctx, endpoint)),
      inspect: noStoreMissing,
    },
    {
      id: 'cache-control-no-store-other',
      name: 'Authenticated responses without personal data may be cached',
      confidence: 'high',
      cvss: 'CVSS:3.1/AV:L/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:N',
      description:
        'Responses that need credentials (a request without them is refused) do not carry `Cache-Control: no-store`. No personal or secret ' +
        'data was seen in them, so this is information: check that none of them can carry user data.',
      recommendation: 'Send `Cache-Control: no-store` on every response that carries user data.',
      applies: async (ex, endpoint, ctx) => endpoint.method === 'GET' && personalData(ex) === null && (await authenticatedResponse(ctx, endpoint)),
      inspect: noStoreMissing,
    },
    {
      id: 'strict-transport-security',
      name: 'Strict-Transport-Security missing',
      confidence: 'high',
      cvss: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
      description: 'HTTPS responses do not carry `Strict-Transport-Security`, so a client can be downgraded to plain HTTP on a hostile network.',
      recommendation: 'Send `Strict-Transport-Security: max-age=31536000; includeSubDomains` on every HTTPS response.',
      applies: (ex) => ex.request.url.startsWith('https:'),
      inspect: (ex) => (ex.header('strict-transport-security') ? null : 'header absent'),
    },
    {
      id: 'version-disclosure',
      name: 'Server software version disclosed',
      confidence: 'high',
      // Low: the version alone is no attack; it only helps choose one (AC:H).
      cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
      description:
        'Response headers name the server software with its version, which tells an attacker which published vulnerabilities to try.',
      recommendation: 'Remove version numbers from `Server`, and drop `X-Powered-By`, `X-AspNet-Version` and `X-AspNetMvc-Version`.',
      inspect: (ex) => {
        for (const name of ['server', 'x-powered-by', 'x-aspnet-version', 'x-aspnetmvc-version']) {
          const v = ex.header(name);
          if (v && VERSION.test(v)) return `${name}: ${v}`;
        }
        return null;
      },
    },
  ],
});
