// API2:2023: a create that takes a confirmation field (passwordRepeat, password_confirmation,
// confirmEmail) and stores the object although the confirmation contradicts the value it confirms:
// the server never checks what the client form asks the user to type twice.

import type { Endpoint } from '../../../../shared/contract';
import { failedInBody, registeredId } from '../../identities/accounts';
import { mutate } from '../../requests';
import { setupOf } from '../common/accounts';
import { confirmationPairs, type ConfirmationPair } from '../common/confirmation-fields';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { isObj, looksLikeError, schemaShape, schemaType } from '../common/objects';
import { OWASP_API2 } from '../common/references';
import { authRoute } from './brute-force';

const pairsOf = (e: Endpoint): ConfirmationPair[] => confirmationPairs(schemaShape(e.request_body?.schema ?? null).props);

/** A value unlike `v` that would pass the same format rules (a letter and a digit added). */
const contradicting = (v: unknown) => `${typeof v === 'string' && v ? v : 'Value-1'}-Xy9`;

export const confirmationMismatch = defineCheck({
  id: 'api2-confirmation-mismatch',
  title: 'Value accepted that its confirmation field contradicts',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-1288',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  needsKey2: false,
  techniques: ['API2.confirmation-fields'],
  description:
    'On creates (POST) whose JSON body has a confirmation field — named after the field it repeats (passwordRepeat, password_confirmation, ' +
    'confirmEmail, repeat_password...) or a bare `repeat`/`confirm` beside the one password field — sends one create with the confirmation ' +
    'contradicting the value. On the sign-up operation this is one of the scan\'s own registrations: finding when the user is created and ' +
    'logs in with the password the confirmation contradicted. On other creates the scan may make (the write policy): finding when the ' +
    'answer is 2xx, not an error, and names the created object (an id or a Location).',
  coverage:
    'Only creates: an update or a password change with a contradicting confirmation could change a credential the scan or a user relies ' +
    'on. Login and password-reset routes are left out. A server that ignores the confirmation because it never stores it is reported too: the ' +
    'API takes the field, so it is the server that must compare it.',
  remediation:
    'Compare every confirmation field with the value it confirms on the server and refuse the request (400 or 422) when they differ; ' +
    'validate the confirmed value itself (not empty, the password policy) in the same place.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/1288.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Input_Validation_Cheat_Sheet.html'],
  appliesTo: (e) =>
    e.method === 'POST' &&
    (e.flags.includes('BKEN_AUTH') || e.flags.includes('BOPLA')) && /json/i.test(e.request_body?.content_type ?? '') && schemaType(e.request_body?.schema ?? null) === 'object' && authRoute(e) === null && pairsOf(e).length > 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const pair = pairsOf(ep)[0]!;
    // The sign-up: a registration of the scan's own, which then logs in with the confirmed field's value.
    if (ctx.accounts && ctx.accounts.signupEndpoint.id === ep.id) {
      const made = await ctx.accounts.create('user registered with a contradicting confirmation', { [pair.confirm]: contradicting('') });
      if ('error' in made) {
        if (!made.registration) ctx.note(`${describeEndpoint(ep)}: confirmation field ${pair.confirm} not tested, ${made.error}.`);
        return;
      }
      yield {
        parameter: pair.confirm,
        description:
          `${describeEndpoint(ep)} registered a user although ${pair.confirm} contradicted ${pair.of} (${pair.confirm} was "${contradicting('')}"), and the ` +
          `user then logged in with its ${pair.of}. The server does not compare the confirmation with the value it confirms, so a client ` +
          'gets accounts the form would have refused (a mistyped password the owner cannot repeat, scripted sign-ups that skip the check).',
        notes: [`${made.session.name} was registered by the scan with ${ep.method} ${ep.path} and logged in.`],
        exchanges: [{ label: `Attack: ${pair.confirm} contradicts ${pair.of}`, exchange: made.registration }],
        reproduce: made.registration,
        setup: [setupOf(made, 'attacker')],
      };
      return;
    }
    // Any other create, within the write policy (prepare refuses what the scan may not send).
    const base = await ctx.prepare(ep, 1, 'write');
    if (!base || !isObj(base.bodyValue) || ctx.budgetLeft() < 1) return;
    const value = base.bodyValue[pair.of];
    const ex = await ctx.sendPrepared(mutate(base, { bodyValue: { ...base.bodyValue, [pair.confirm]: contradicting(value) } }), ctx.authSpec().declaredSecured ? { kind: 'key', key: 1 } : { kind: 'none' });
    if (!ex.ok || looksLikeError(ex) || failedInBody(ex)) return;
    const id = registeredId(ex);
    if (!id && !ex.header('location')) return;
    yield {
      parameter: pair.confirm,
      description:
        `${describeEndpoint(ep)} created an object (HTTP ${ex.status}${id ? `, id ${id}` : ''}) although ${pair.confirm} contradicted ${pair.of}. The server ` +
        'does not compare the confirmation with the value it confirms.',
      exchanges: [{ label: `Attack: ${pair.confirm} contradicts ${pair.of}`, exchange: ex }],
      reproduce: ex,
    };
  },
});
