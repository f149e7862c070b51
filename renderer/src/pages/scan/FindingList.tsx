// The scan page's list of findings: category and check headings, one row per finding (its endpoint),
// drawn virtually so a scan with 10,000 findings scrolls and filters without jank. The selected row
// is the one tab stop of the list (roving tab index); the page moves it with the arrow keys.

import { useVirtualizer } from '@tanstack/react-virtual';
import { forwardRef, useImperativeHandle, useRef, type ReactElement } from 'react';
import { severityText } from '../../../../shared/severity';
import { PathText } from '../../components/PathText';
import { MethodBadge } from '../../modals/shared';
import { TRIAGE_LABELS, triageStateOf, type ListRow } from './findings-view';

/** Row heights (px): fixed, so nothing is measured while scrolling. */
const ROW_HEIGHT: Record<ListRow['kind'], number> = { category: 40, check: 34, finding: 46 };

export interface FindingListHandle {
  /** Scrolls a row into view and focuses it when the list has focus (or `focus` says so). */
  reveal(index: number, focus?: boolean): void;
}

export const rowDomId = (findingId: string): string => `finding-row-${findingId}`;

export const FindingList = forwardRef<FindingListHandle, { rows: ListRow[]; selectedId: string | null; onSelect(id: string): void }>(
  function FindingList({ rows, selectedId, onSelect }, ref): ReactElement {
    const scrollRef = useRef<HTMLDivElement>(null);
    const virtualizer = useVirtualizer({
      count: rows.length,
      getScrollElement: () => scrollRef.current,
      estimateSize: (i) => ROW_HEIGHT[rows[i]!.kind],
      getItemKey: (i) => rows[i]!.key,
      overscan: 12,
    });

    useImperativeHandle(
      ref,
      () => ({
        reveal(index, focus) {
          virtualizer.scrollToIndex(index, { align: 'auto' });
          const row = rows[index];
          if (row?.kind !== 'finding') return;
          const wantsFocus = focus ?? !!scrollRef.current?.contains(document.activeElement);
          if (!wantsFocus) return;
          // The row may only exist after the scroll has rendered it.
          const focusRow = (tries: number) => {
            const el = document.getElementById(rowDomId(row.key));
            if (el) el.focus({ preventScroll: true });
            else if (tries > 0) requestAnimationFrame(() => focusRow(tries - 1));
          };
          focusRow(5);
        },
      }),
      [rows, virtualizer],
    );

    // The first finding is the tab stop while the selection is not among the rows.
    const selectedVisible = selectedId !== null && rows.some((r) => r.kind === 'finding' && r.key === selectedId);
    const firstFinding = rows.find((r) => r.kind === 'finding')?.key ?? null;
    const tabStop = selectedVisible ? selectedId : firstFinding;

    return (
      <div ref={scrollRef} className="finding-list" data-testid="finding-list" role="region" aria-label="Findings, grouped by OWASP category and check">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const style = { position: 'absolute' as const, top: 0, left: 0, width: '100%', height: item.size, transform: `translateY(${item.start}px)` };
            if (row.kind === 'category')
              return (
                <div key={item.key} style={style} className="finding-group-category" role="heading" aria-level={3} data-testid="group-category">
                  <span className="finding-group-label">{row.label}</span>
                  <span className="count-chip">{row.count}</span>
                </div>
              );
            if (row.kind === 'check')
              return (
                <div key={item.key} style={style} className="finding-group-check" role="heading" aria-level={4} data-testid="group-check">
                  <span className="finding-group-label">{row.label}</span>
                  <span className="muted small">{row.count}</span>
                </div>
              );
            const f = row.finding;
            const operation = f.graphql?.operation ?? null;
            const where = operation ?? f.path;
            const state = triageStateOf(f);
            const selected = f.id === selectedId;
            return (
              <button
                key={item.key}
                id={rowDomId(f.id)}
                type="button"
                style={style}
                className={`finding-row${selected ? ' is-selected' : ''}${state !== 'open' ? ' is-triaged' : ''}`}
                aria-current={selected ? 'true' : undefined}
                tabIndex={f.id === tabStop ? 0 : -1}
                onClick={() => onSelect(f.id)}
                data-testid="finding-row"
                data-finding-id={f.id}
                data-severity={row.severity}
                data-triage={state}
              >
                <span className={`sev sev-${row.severity}`}>{severityText(f)}</span>
                {/* The operation's name says its kind: a short badge leaves the name room in the narrow list. */}
                {operation ? (
                  <span className="method method-gql" title="GraphQL operation">
                    GQL
                  </span>
                ) : (
                  <MethodBadge method={f.method || '*'} />
                )}
                <span className="finding-row-path mono" title={f.parameter ? `${where} (${f.parameter})` : where} data-operation={operation ?? undefined}>
                  {operation ? <span className="path-text-head">{where}</span> : <PathText path={where} />}
                  {f.parameter && <span className="muted finding-row-parameter">· {f.parameter}</span>}
                </span>
                {f.trend === 'new' && <span className="badge badge-primary">New</span>}
                {state !== 'open' && (
                  <span className="badge badge-neutral" data-testid="row-triage">
                    {TRIAGE_LABELS[state]}
                  </span>
                )}
              </button>
            );
          })}
        </div>
      </div>
    );
  },
);
