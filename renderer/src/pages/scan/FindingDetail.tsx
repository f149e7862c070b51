// The scan page's detail pane (issue 17): one finding's severity, endpoint, description, evidence
// exchanges, curl sequence (with a copy button), CVSS vector and score, CWE, fix, references and triage;
// for a GraphQL finding, its operation, query and variables. The head, facts and triage come from the
// list's brief at once; the long texts from the whole finding, read when the finding is opened. The fix
// is Markdown (components/Markdown.tsx); the description, which quotes the API, shows only its code spans.

import { forwardRef, lazy, Suspense, type ReactElement } from 'react';
import type { Finding, FindingBrief } from '../../../../shared/contract';
import { FINDING_MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/Alert';
import { CodeSpans } from '../../components/CodeSpans';
import { Spinner } from '../../components/Spinner';
import type { OpenedFinding } from '../../stores/useOpenedFindingStore';
import { curlVariablesLine } from '../../../../shared/curl-variables';
import { severityLevel, severityText } from '../../../../shared/severity';
import { capitalize } from '../../lib/format';
import { FindingGraphqlSection, kindOfOperation, OperationBadge } from '../../modals/graphql-parts';
import { CodeBlock, MethodBadge, ReferenceList } from '../../modals/shared';
import { loadMarkdown } from '../../lib/page-chunks';
import { noticeStore } from '../../stores/useNoticeStore';
import { categoryLabel } from './findings-view';
import { TriagePanel } from './TriagePanel';
import { RetestPanel } from './RetestPanel';

const onCopied = (ok: boolean) =>
  noticeStore.getState().show(ok ? 'success' : 'error', ok ? 'Copied to the clipboard.' : 'Could not copy: select the text and copy it instead.');

/** A CWE id as a link to its MITRE page ("CWE-639"). */
function cweLink(cwe: string): string | null {
  const m = /^CWE-(\d+)$/i.exec(cwe.trim());
  return m ? `https://cwe.mitre.org/data/definitions/${m[1]}.html` : null;
}

interface FindingDetailProps {
  /** The list's brief: what shows at once. */
  finding: FindingBrief;
  /** The whole finding's read (absent until asked for). */
  opened: OpenedFinding | undefined;
  onRetry(): void;
  canTriage: boolean;
}

const Markdown = lazy(() => loadMarkdown().then((m) => ({ default: m.Markdown })));

/** A text as Markdown; the plain text for the moment the renderer's chunk is still on its way. */
function MarkdownText({ text, testId }: { text: string; testId: string }): ReactElement {
  return (
    <Suspense
      fallback={
        <div className="markdown" data-testid={testId}>
          <p>{text}</p>
        </div>
      }
    >
      <Markdown text={text} testId={testId} />
    </Suspense>
  );
}

/** The long texts of the finding: description, GraphQL request, evidence, curl, fix and references. */
function FindingTexts({ whole }: { whole: Finding }): ReactElement {
  const variables = whole.curl ? curlVariablesLine(whole.curl) : null;
  return (
    <>
      <section>
        <h3>Description</h3>
        <CodeSpans text={whole.description} testId="detail-description" />
      </section>
      {whole.graphql && <FindingGraphqlSection graphql={whole.graphql} testId="detail-graphql" onCopied={onCopied} />}
      {whole.evidence && <CodeBlock title="Evidence" text={whole.evidence} testId="detail-evidence" onCopied={onCopied} />}
      {whole.curl && <CodeBlock title="Reproduce with curl" text={whole.curl} testId="detail-curl" onCopied={onCopied} />}
      {variables && <p className="muted small" data-testid="curl-variables">{variables}</p>}
      <section>
        <h3>Fix</h3>
        <MarkdownText text={whole.recommendation} testId="detail-fix" />
      </section>
      {whole.references?.length > 0 && (
        <section>
          <h3>References</h3>
          <ReferenceList refs={whole.references} className="finding-references" testId="detail-references" />
        </section>
      )}
    </>
  );
}

export const FindingDetail = forwardRef<HTMLSelectElement, FindingDetailProps>(function FindingDetail({ finding: f, opened, onRetry, canTriage }, triageRef): ReactElement {
  const whole = opened?.status === 'ready' ? opened.finding : null;
  const level = severityLevel(f);
  const cwe = f.cwe ? cweLink(f.cwe) : null;
  return (
    <article className="finding-detail" aria-labelledby="finding-detail-title" data-testid="finding-detail" data-finding-id={f.id}>
      <header className="finding-detail-head">
        <span className={`sev sev-${level}`} data-testid="detail-severity">
          {severityText(f)}
        </span>
        <h2 id="finding-detail-title" data-testid="detail-name">
          {f.vulnerability_name}
        </h2>
        <p className="endpoint-line" data-testid="detail-endpoint">
          {f.graphql?.operation ? (
            <>
              <OperationBadge kind={kindOfOperation(f.graphql.operation)} />
              <span className="mono operation-name">{f.graphql.operation}</span>
              <span className="muted small">
                {f.method} {f.path}
              </span>
            </>
          ) : (
            <>
              <MethodBadge method={f.method || '*'} />
              <span className="mono">{f.path}</span>
            </>
          )}
          {f.parameter && <span className="muted small">{f.graphql ? 'argument' : 'parameter'} {f.parameter}</span>}
        </p>
      </header>

      <dl className="finding-facts">
        <div>
          <dt>CVSS score</dt>
          <dd data-testid="detail-cvss-score">{Number(f.cvss_score ?? 0).toFixed(1)}</dd>
        </div>
        <div>
          <dt>CWE</dt>
          <dd data-testid="detail-cwe">
            {cwe ? (
              <a href={cwe} target="_blank" rel="noreferrer noopener">
                {f.cwe}
              </a>
            ) : (
              f.cwe || '—'
            )}
          </dd>
        </div>
        <div>
          <dt>Confidence</dt>
          <dd>{capitalize(f.confidence ?? '')}</dd>
        </div>
        <div>
          <dt>Trend</dt>
          <dd data-testid="detail-trend">{f.trend === 'recurring' ? 'Recurring' : 'New'}</dd>
        </div>
      </dl>
      <p className="small" style={{ margin: 0 }}>
        <span className="muted">Category:</span> {categoryLabel(f.owasp)}
      </p>
      {whole?.cvss_vector && (
        <p className="small" style={{ margin: 0 }}>
          <span className="muted">CVSS vector:</span>{' '}
          <span className="mono cvss-vector" data-testid="detail-cvss-vector">
            {whole?.cvss_vector}
          </span>
        </p>
      )}

      <TriagePanel ref={triageRef} finding={f} canTriage={canTriage} />
      <RetestPanel finding={f} canRetest={canTriage} />

      {whole ? (
        <FindingTexts whole={whole} />
      ) : opened?.status === 'error' ? (
        <Alert kind="error" testId="detail-load-error">
          {opened.error}{' '}
          <button type="button" className="button button-secondary button-small" onClick={onRetry}>
            Try again
          </button>
        </Alert>
      ) : (
        <p className="muted small" data-testid="detail-loading">
          <Spinner label={FINDING_MESSAGES.loading} /> <span aria-hidden="true">{FINDING_MESSAGES.loading}</span>
        </p>
      )}
    </article>
  );
});
