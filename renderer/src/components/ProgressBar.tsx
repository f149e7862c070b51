// A progress bar drawn with plain elements; without a total it runs indeterminate.

import type { ReactElement } from 'react';

export function ProgressBar({
  done,
  total,
  label,
  testId,
}: {
  done?: number;
  total?: number;
  label: string;
  testId?: string;
}): ReactElement {
  const known = typeof done === 'number' && typeof total === 'number' && total > 0;
  const percent = known ? Math.min(100, Math.round((done / total) * 100)) : undefined;
  return (
    <div
      className={`progress${known ? '' : ' progress-indeterminate'}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      data-testid={testId}
      data-done={known ? done : undefined}
      data-total={known ? total : undefined}
    >
      <div className="progress-bar" style={known ? { width: `${percent}%` } : undefined} />
    </div>
  );
}
