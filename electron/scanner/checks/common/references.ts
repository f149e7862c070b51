// The OWASP API Security Top 10 (2023) pages the checks cite, one per category.

export const OWASP_API1 = 'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/';
export const OWASP_API2 = 'https://owasp.org/API-Security/editions/2023/en/0xa2-broken-authentication/';
export const OWASP_API3 = 'https://owasp.org/API-Security/editions/2023/en/0xa3-broken-object-property-level-authorization/';
export const OWASP_API4 = 'https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/';
export const OWASP_API5 = 'https://owasp.org/API-Security/editions/2023/en/0xa5-broken-function-level-authorization/';
export const OWASP_API6 = 'https://owasp.org/API-Security/editions/2023/en/0xa6-unrestricted-access-to-sensitive-business-flows/';
export const OWASP_API7 = 'https://owasp.org/API-Security/editions/2023/en/0xa7-server-side-request-forgery/';
export const OWASP_API8 = 'https://owasp.org/API-Security/editions/2023/en/0xa8-security-misconfiguration/';
export const OWASP_API9 = 'https://owasp.org/API-Security/editions/2023/en/0xa9-improper-inventory-management/';
export const OWASP_API10 = 'https://owasp.org/API-Security/editions/2023/en/0xaa-unsafe-consumption-of-apis/';

export const CWE770 = 'https://cwe.mitre.org/data/definitions/770.html';

export const OWASP_GRAPHQL_CHEAT_SHEET = 'https://cheatsheetseries.owasp.org/cheatsheets/GraphQL_Cheat_Sheet.html';
