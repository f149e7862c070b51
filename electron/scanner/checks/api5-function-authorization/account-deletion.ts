// API5:2023 Broken Function Level Authorization: one user deleting another's account (users the
// scan created only).


import { aimAtVictim, aimedAt, asIdentity, isUserDelete, proofLines, setupOf } from '../common/accounts';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { OWASP_API5 } from '../common/references';


// ---------------------------------------------------------------- another user's account deleted

export const accountDeleteOther = defineCheck({
  id: 'api5-account-delete-other',
  title: "An ordinary user can delete another user's account",
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-285',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  techniques: ['ACCOUNT.delete-other'],
  description:
    'For a DELETE on a user\'s path (DELETE /users/{id}), the scan registers two users of its own; the first deletes the second. Finding: ' +
    'the delete is accepted and the victim can no longer log in (it could just before).',
  coverage: 'Needs a sign-up operation and a way for created users to log in. Only accounts the scan registered are deleted.',
  remediation:
    'Deleting accounts is an administrative function (or the user\'s own, from the session): check the caller\'s role and the ownership of ' +
    'the account in one authorization layer before deleting anything.',
  references: [OWASP_API5, 'https://cwe.mitre.org/data/definitions/285.html'],
  appliesTo: (e) => e.method === 'DELETE' && e.flags.includes('BFLA') && isUserDelete(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const setup = await aimAtVictim(ctx, 'account deletion');
    if (!setup) return;
    const { attacker, victim, param, value } = setup;
    const attack = await ctx.sendPrepared(aimedAt(ctx, ep, param, value, null), asIdentity(attacker.session));
    if (!attack.response || attack.status >= 400) return;
    const proof = await ctx.accounts!.tryLogin(victim.account, victim.account.password);
    if (proof.ok) return;
    yield {
      parameter: param,
      description:
        `${describeEndpoint(ep)} let one ordinary user delete another user's account: ${attacker.session.name} deleted ${victim.session.name} ` +
        `(${param}=${value}) and got ${attack.status}; ${victim.session.name} can no longer log in with the password that worked when it registered.`,
      notes: [`Both users were registered by the scan: ${attacker.session.name} is the attacker, ${victim.session.name} the victim.`],
      exchanges: [
        { label: `Attack: ${attacker.session.name} deletes ${victim.session.name}`, exchange: attack },
        ...proofLines(proof.exchanges, `Proof: ${victim.session.name}'s login now fails`),
      ],
      reproduce: attack,
      setup: [setupOf(attacker, 'attacker'), setupOf(victim, 'victim')],
    };
  },
});
