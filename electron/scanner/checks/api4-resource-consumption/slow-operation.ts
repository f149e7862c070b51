// API4:2023 Unrestricted Resource Consumption: an operation whose single answer takes many seconds of the
// server's own time. The engine times every ordinary request and tells a request's own time from the time
// it waited behind others (http/pace.ts ownTime); an operation past the bar is sent nothing more
// (http/engine.ts), so that it does not hold a server that answers one request at a time. That one
// answer is already the proof: a client can tie the server up for as long with one request, and a few
// at once exhaust it. This check reads what the engine learnt, after every other check, and sends nothing.

import { withPrivileges, defineCheck } from '../common/helpers';
import { OWASP_API4 } from '../common/references';

/** The answer took at least this many times the target's usual answer: its slowness is the operation's, not the machine's. */
export const USUAL_FACTOR = 20;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const slowOperation = defineCheck({
  id: 'api4-slow-operation',
  title: 'Resource-intensive operation: one request holds the server for seconds',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-400',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L',
  kind: 'passive',
  safety: 'safe',
  scope: 'api',
  // After every other check: the operations are timed by the requests of all of them.
  last: true,
  protocols: ['rest', 'graphql'],
  budget: 0,
  techniques: ['API4.slow-operation'],
  description:
    'Sends nothing: reads the times of the ordinary requests the scan sent (not its delay, depth or size probes). Each answer\'s own time is ' +
    'the part after every request sent ahead of it to the target was answered (and any request given up on before it was cleared by a ' +
    'later answer), so waiting behind other requests does not count. Finding (one per operation) when an operation\'s own time was past ' +
    `the scan's slow-operation bar (a quarter of the request timeout, at least 5 s) and at least ${USUAL_FACTOR} times the target's usual ` +
    'answer time then; the scan sent that operation nothing more after that answer.',
  coverage:
    'Only operations the scan could call with valid input are timed, with the values it chose; an operation slow only for some inputs or ' +
    'some data sizes is not seen, and an operation that answered under the bar once is never timed alone again. Slowness that comes from ' +
    'the machine (every answer slow) is not reported.',
  remediation:
    'Make the operation answer quickly and do the slow work elsewhere: a background job with a status to poll, a cache, pagination or a ' +
    'cost limit; give the server a time limit per request; and rate-limit the operation per client, so that a few requests at once cannot ' +
    'tie up every worker.',
  references: [OWASP_API4, 'https://cwe.mitre.org/data/definitions/400.html'],
  appliesTo: (e) => e.flags.includes('URC'),
  async *run(ctx) {
    const byId = new Map(ctx.endpoints.map((e) => [e.id, e]));
    for (const slow of ctx.slowOperations?.() ?? []) {
      const endpoint = byId.get(slow.operation);
      const ex = slow.evidence;
      if (!endpoint || !slow.alone || !ex || slow.ownMs === undefined) continue;
      const usual = slow.usualMs ?? 0;
      if (usual > 0 && slow.ownMs < USUAL_FACTOR * usual) continue;
      const answered = ex.response ? `answered HTTP ${ex.status} after ${seconds(ex.durationMs)}` : `had not answered after ${seconds(ex.durationMs)} (${ex.error ?? 'timeout'})`;
      yield {
        endpoint,
        parameter: null,
        name: `Resource-intensive operation: one request took ${seconds(slow.ownMs)} (slow response)`,
        cvss: withPrivileges(ctx, ctx.check.cvss, endpoint),
        description:
          `One ordinary request ${answered}, ${seconds(slow.ownMs)} of it the server's own time on this request (every request sent ahead ` +
          `of it had been answered), while the target usually answered in ${usual ? `${Math.round(usual)} ms` : 'well under a second'}. ` +
          'A client can hold a server worker that long with one request, and a few at once exhaust a server with few workers; the scan sent ' +
          'this operation nothing more, so that it would not hold the API (and every request queued behind it).',
        notes: [`Own time: ${seconds(slow.ownMs)}; the target's usual answer time then: ${usual ? `${Math.round(usual)} ms` : 'not known yet'}.`],
        exchanges: [{ label: `Attack: one ordinary request (${seconds(ex.durationMs)})`, exchange: ex }],
        reproduce: ex,
      };
    }
  },
});
