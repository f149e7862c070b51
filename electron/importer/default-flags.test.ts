import { describe, expect, it } from 'vitest';
import type { Flag } from '../../shared/constants';
import type { ApiSecurity, EndpointParameter } from '../../shared/contract';
import { defaultFlags, isIdLikeName, wordsOf } from './default-flags';
import type { ExtractedEndpoint } from './result';

const api: ApiSecurity = { schemes: {}, default: [] };
const q = (name: string, schema: Record<string, unknown> = { type: 'string' }): EndpointParameter => ({ name, in: 'query', required: false, schema });
const p = (name: string, schema: Record<string, unknown> = { type: 'string' }): EndpointParameter => ({ name, in: 'path', required: true, schema });

function ep(method: string, path: string, extra: Partial<ExtractedEndpoint> = {}): ExtractedEndpoint {
  return { method, path, summary: '', operation_id: null, tags: [], parameters: [], request_body: null, responses: {}, security: null, ...extra };
}

const flags = (e: ExtractedEndpoint, security = api): Flag[] => defaultFlags(e, security).filter((f) => f !== 'SEC_MISC' && f !== 'IIM').sort();

describe('default flags (DESIGN.md section 5)', () => {
  it('always sets SEC_MISC and IIM, never SKIP', () => {
    const all = defaultFlags(ep('GET', '/health'), api);
    expect(all).toEqual(['SEC_MISC', 'IIM']);
  });

  it.each<[string, ExtractedEndpoint, Flag[]]>([
    ['BOLA: a path parameter', ep('GET', '/pets/{petId}', { parameters: [p('petId')] }), ['BOLA']],
    ['BOLA: an id-like query parameter', ep('GET', '/orders', { parameters: [q('customer_id')] }), ['BOLA']],
    ['not BOLA: a version path parameter', ep('GET', '/{version}/status', { parameters: [p('version')] }), []],
    ['BKEN_AUTH: a login route', ep('POST', '/auth/login'), ['BKEN_AUTH', 'BOPLA']],
    ['BKEN_AUTH: a password reset', ep('POST', '/users/password-reset'), ['BKEN_AUTH', 'BOPLA', 'UABF']],
    ['BKEN_AUTH: requires auth', ep('GET', '/me', { security: [{ bearer: [] }] }), ['BKEN_AUTH']],
    ['not BKEN_AUTH: auth is optional', ep('GET', '/feed', { security: [{ bearer: [] }, {}] }), ['UCAPI']],
    ['BOPLA: returns an object', ep('GET', '/me', { responses: { '200': { description: '', content_type: 'application/json', schema: { type: 'object', properties: { a: {} } } } } }), ['BOPLA']],
    ['URC: pages', ep('GET', '/items', { parameters: [q('limit'), q('offset')] }), ['URC']],
    ['URC: lists a collection', ep('GET', '/items', { responses: { '200': { description: '', content_type: null, schema: { type: 'array', items: { type: 'string' } } } } }), ['URC']],
    ['URC: searches', ep('GET', '/search', { parameters: [q('q')] }), ['URC']],
    ['URC: uploads', ep('POST', '/avatars', { request_body: { required: true, content_type: 'multipart/form-data', schema: null } }), ['BOPLA', 'URC']],
    ['URC: a declared size bound', ep('PATCH', '/me', { request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { bio: { type: 'string', maxLength: 500 } } } } }), ['BFLA', 'BOPLA', 'URC']],
    ['URC: a bounded query parameter', ep('GET', '/lookup', { parameters: [q('code', { type: 'string', maxLength: 8 })] }), ['URC']],
    ['BFLA: DELETE', ep('DELETE', '/things/{id}', { parameters: [p('id')] }), ['BFLA', 'BOLA']],
    ['BFLA: admin-like', ep('GET', '/admin/users'), ['BFLA']],
    ['UABF: checkout', ep('POST', '/cart/checkout'), ['BOPLA', 'UABF']],
    ['UABF: reading a CAPTCHA challenge', ep('GET', '/feedback/captcha'), ['UABF']],
    ['UABF: sending a one-time code', ep('POST', '/auth/otp/send'), ['BKEN_AUTH', 'BOPLA', 'UABF']],
    ['not UABF: an invoice lookup', ep('POST', '/invoices/lookup', { operation_id: 'lookupInvoice' }), ['BOPLA', 'URC']],
    ['not UABF: reading orders', ep('GET', '/orders'), []],
    ['SSRF: a URL parameter', ep('POST', '/hooks', { parameters: [q('callback_url')] }), ['BOPLA', 'SSRF', 'UCAPI']],
    ['SSRF: a uri-format body property', ep('PUT', '/profile', { request_body: { required: true, content_type: 'application/json', schema: { type: 'object', properties: { site: { type: 'string', format: 'uri' } } } } }), ['BFLA', 'BOPLA', 'SSRF', 'UCAPI']],
    ['not SSRF: target_user_id', ep('GET', '/follows', { parameters: [q('target_user_id')] }), ['BOLA']],
    ['UCAPI: an integration', ep('GET', '/integrations/slack/sync'), ['UCAPI']],
  ])('%s', (_name, e, expected) => {
    expect(flags(e)).toEqual(expected.sort());
  });

  it('uses the API default security when the endpoint has none', () => {
    expect(flags(ep('GET', '/x'), { schemes: {}, default: [{ key: [] }] })).toEqual(['BKEN_AUTH']);
    expect(flags(ep('GET', '/x', { security: [] }), { schemes: {}, default: [{ key: [] }] })).toEqual([]);
  });

  it('splits identifiers into words', () => {
    expect(wordsOf('resetPassword /users/{user_id}')).toBe(' reset password users user id ');
    expect(wordsOf('HTTPServerURL')).toBe(' http server url ');
    expect(isIdLikeName('petId')).toBe(true);
    expect(isIdLikeName('valid')).toBe(false);
    expect(isIdLikeName('ID')).toBe(true);
  });
});
