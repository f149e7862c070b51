// The appendix both PDFs end with when findings were set aside in triage (issue 17): listed, so
// nothing is hidden, with who set them aside, when, until when and why; outside the score and counts.

import { day, endpointLabel, type RenderOptions } from '../format';
import { triagedNumbers, type ReportInput } from '../model';
import { levelColor } from './charts';
import { CONTENT_WIDTH, STYLES, type Flow } from './layout';

const TRIAGE_LABEL = { open: 'Open', false_positive: 'False positive', accepted_risk: 'Accepted risk', fixed: 'Fixed' } as const;

export function triagedAppendix(flow: Flow, input: ReportInput, opts: RenderOptions): void {
  if (!input.triaged.length) return;
  const numbers = triagedNumbers(input.triaged);
  flow.heading('Appendix. Findings set aside in triage', STYLES.h1, { toc: 0, rule: true });
  flow.paragraph(
    'Someone with the right to manage this API marked these findings as false positives or accepted risks. They are not in the score, ' +
      'the counts or the findings above; an accepted risk counts again once its end date passes.',
  );
  flow.table(
    [
      { header: '#', width: 40, font: 'mono' },
      { header: 'Finding', width: 150 },
      { header: 'Endpoint', width: 120, font: 'mono' },
      { header: 'Triage', width: CONTENT_WIDTH - 310 },
    ],
    input.triaged.map((f) => {
      const t = f.triage!;
      const who = [t.set_by ? `by ${t.set_by}` : null, `on ${day(t.set_at, opts)}`, t.expires_at ? `until ${day(t.expires_at, opts)}` : null].filter(Boolean).join(' ');
      return [
        numbers.get(f.id)!,
        { text: f.vulnerability_name, dot: levelColor(f) },
        endpointLabel(f.method, f.path).trim() || '—',
        `${TRIAGE_LABEL[t.state]} ${who}.${t.reason ? ` ${t.reason}` : ''}`,
      ];
    }),
    { size: 8 },
  );
}

