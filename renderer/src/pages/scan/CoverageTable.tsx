// The Coverage tab's table (issue 26): one row per operation, a status cell per identity, the checks
// that ran, found or were skipped; a row opens to list every skipped check with its reason, the API's
// answer and the fix. Rows are drawn virtually (one <tbody> per operation, measured, so an open row
// takes the height it needs) and the header stays in view.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactElement } from 'react';
import { COVERAGE_MESSAGES } from '../../../../shared/coverage-messages';
import { Icon } from '../../components/Icon';
import { capitalize } from '../../lib/format';
import { MethodBadge } from '../../modals/shared';
import { checksLine, codeSpans, skipGroups, skipsLine, splitPath, type CoverageCell, type CoverageRow } from './coverage-view';

/** The header row's height (px, fixed in scan-page.css): where the virtual rows begin. */
const HEAD_HEIGHT = 40;
/** A closed row's height (px), with and without a line of skipped checks (which may wrap); every row is then measured. */
const ROW_ESTIMATE = { plain: 52, skips: 76 };

export function TextWithCode({ text }: { text: string }): ReactElement {
  return <>{codeSpans(text).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : <span key={i}>{p.text}</span>))}</>;
}

function StatusCell({ cell }: { cell: CoverageCell }): ReactElement {
  if (cell.status === 'not-sent')
    return (
      <td className="cov-cell-td" data-testid="coverage-cell" data-identity={cell.identity} data-status="not-sent" data-requests={0}>
        <span className="cov-cell cov-not-sent" title={cell.text}>
          <span aria-hidden="true">—</span>
          <span className="sr-only">{COVERAGE_MESSAGES.notSent}</span>
        </span>
      </td>
    );
  return (
    <td className="cov-cell-td" data-testid="coverage-cell" data-identity={cell.identity} data-status={cell.status} data-requests={cell.requests}>
      <span className={`cov-cell cov-${cell.status}`} title={cell.text}>
        <span className="cov-class" aria-hidden="true">
          {cell.status}
        </span>
        <span className="cov-count" aria-hidden="true">
          {cell.requests}
        </span>
        <span className="sr-only">{cell.text}</span>
      </span>
    </td>
  );
}

function OperationLabel({ row }: { row: CoverageRow }): ReactElement {
  const { op } = row;
  if (op.operation)
    return (
      <>
        <span className="method method-gql" title="GraphQL operation">
          GQL
        </span>
        <span className="cov-path mono" title={op.operation}>
          <span className="cov-path-head">{op.operation}</span>
        </span>
      </>
    );
  const [head, tail] = splitPath(op.path);
  return (
    <>
      <MethodBadge method={op.method || '*'} />
      <span className="cov-path mono" title={op.path}>
        {head && <span className="cov-path-head">{head}</span>}
        <span className="cov-path-tail">{tail}</span>
      </span>
      {op.discovered && (
        <span className="cov-discovered" title={`Not in the API description: the scan found it in ${op.discovered}.`} data-testid="coverage-discovered">
          discovered
        </span>
      )}
    </>
  );
}

function CheckList({ ids, checkName }: { ids: readonly string[]; checkName(id: string): string }): ReactElement {
  return (
    <ul className="cov-check-list">
      {ids.map((id) => (
        <li key={id}>
          {checkName(id)} <code className="muted">{id}</code>
        </li>
      ))}
    </ul>
  );
}

function RowDetail({ row, id, checkName }: { row: CoverageRow; id: string; checkName(id: string): string }): ReactElement {
  const { op } = row;
  const groups = skipGroups(row.skips);
  const ranOnly = op.ran.filter((c) => !op.found.includes(c));
  return (
    <div className="cov-detail" id={id} data-testid="coverage-detail">
      <section>
        <h4>Answers by identity</h4>
        <ul className="cov-answers">
          {row.cells.map((c) => (
            <li key={c.identity}>{c.text}</li>
          ))}
        </ul>
      </section>
      {groups.length > 0 && (
        <section data-testid="coverage-skips">
          <h4>Checks that could not run here</h4>
          {groups.map((g) => (
            <div key={g.reason} className="cov-skip-group" data-testid="coverage-skip-group" data-reason={g.reason}>
              <p className="cov-skip-reason">
                <strong>{capitalize(g.label)}</strong>{' '}
                <span className="count-chip">
                  {g.details.reduce((n, d) => n + d.checks.length, 0)} {g.details.reduce((n, d) => n + d.checks.length, 0) === 1 ? 'check' : 'checks'}
                </span>
              </p>
              <p className="cov-fix">
                {COVERAGE_MESSAGES.reasonsFix} <TextWithCode text={g.fix} />
              </p>
              {g.details.map((d) => (
                <div key={d.detail} className="cov-skip-detail">
                  {d.detail && <p className="cov-skip-why mono">{d.detail}</p>}
                  <CheckList ids={d.checks} checkName={checkName} />
                </div>
              ))}
            </div>
          ))}
        </section>
      )}
      {op.found.length > 0 && (
        <section>
          <h4>Found something</h4>
          <CheckList ids={op.found} checkName={checkName} />
        </section>
      )}
      {ranOnly.length > 0 && (
        <section>
          <h4>Ran without a finding</h4>
          <p className="small">{ranOnly.map(checkName).join(' · ')}</p>
        </section>
      )}
      {row.notApplicable > 0 && (
        <p className="small muted">
          {row.notApplicable} {row.notApplicable === 1 ? 'check has' : 'checks have'} nothing to test on this operation.
        </p>
      )}
    </div>
  );
}

export function CoverageTable({
  rows,
  identities,
  open,
  onToggle,
  checkName,
}: {
  rows: CoverageRow[];
  identities: string[];
  open: ReadonlySet<string>;
  onToggle(key: string): void;
  checkName(id: string): string;
}): ReactElement {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]!.skips.length ? ROW_ESTIMATE.skips : ROW_ESTIMATE.plain),
    getItemKey: (i) => rows[i]!.key,
    scrollMargin: HEAD_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const top = items.length ? items[0]!.start - HEAD_HEIGHT : 0;
  const bottom = items.length ? virtualizer.getTotalSize() - (items.at(-1)!.end - HEAD_HEIGHT) : 0;
  const columns = identities.length + 2;
  // Narrow windows scroll the table sideways rather than squeezing the paths away.
  const minWidth = 240 + identities.length * 112 + 230;

  return (
    <div ref={scrollRef} className="cov-table-wrap" data-testid="coverage-table" role="region" aria-label="Coverage by operation">
      <table className="cov-table" style={{ minWidth }}>
        <colgroup>
          <col />
          {identities.map((name) => (
            <col key={name} className="cov-col-identity" />
          ))}
          <col className="cov-col-checks" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Operation</th>
            {identities.map((name) => (
              <th key={name} scope="col" className="cov-identity-head" title={name} data-testid="coverage-identity">
                {name}
              </th>
            ))}
            <th scope="col">Checks</th>
          </tr>
        </thead>
        {top > 0 && (
          <tbody aria-hidden="true">
            <tr className="cov-spacer" style={{ height: top }} />
          </tbody>
        )}
        {items.map((item) => {
          const row = rows[item.index]!;
          const isOpen = open.has(row.key);
          const detailId = `cov-detail-${item.index}`;
          return (
            <tbody
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className={`cov-row${isOpen ? ' is-open' : ''}`}
              data-testid="coverage-row"
              data-label={row.label}
              data-reached={row.reached}
            >
              <tr>
                <th scope="row" className="cov-op-cell">
                  <button
                    type="button"
                    className="cov-op"
                    aria-expanded={isOpen}
                    aria-controls={isOpen ? detailId : undefined}
                    onClick={() => onToggle(row.key)}
                    data-testid="coverage-row-toggle"
                  >
                    <Icon name={isOpen ? 'chevronDown' : 'chevronRight'} size={16} />
                    <OperationLabel row={row} />
                  </button>
                </th>
                {row.cells.map((c) => (
                  <StatusCell key={c.identity} cell={c} />
                ))}
                <td className="cov-checks" data-testid="coverage-checks">
                  <span className="cov-checks-line">{checksLine(row.op)}</span>
                  {row.skips.length > 0 && (
                    <span className="cov-skips-line" data-testid="coverage-skips-line">
                      {skipsLine(row)}
                    </span>
                  )}
                </td>
              </tr>
              {isOpen && (
                <tr className="cov-detail-row">
                  <td colSpan={columns}>
                    <RowDetail row={row} id={detailId} checkName={checkName} />
                  </td>
                </tr>
              )}
            </tbody>
          );
        })}
        {bottom > 0 && (
          <tbody aria-hidden="true">
            <tr className="cov-spacer" style={{ height: bottom }} />
          </tbody>
        )}
      </table>
    </div>
  );
}
