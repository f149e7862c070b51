// The Portcullis mark (a gate) and word mark.

import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../shared/constants';

export function LogoMark({ size = 28 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="logo-mark">
      <path d="M4 30V12a12 12 0 0 1 24 0v18" fill="none" stroke="currentColor" strokeWidth="3" strokeLinejoin="round" />
      <path d="M10 7.6V30M16 4v26M22 7.6V30M5 16h22M5 23h22" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

export function Logo({ to = '/landing' }: { to?: string }): ReactElement {
  return (
    <Link to={to} className="logo" aria-label={`${PRODUCT_NAME} home`} data-testid="logo-link">
      <LogoMark />
      <span className="logo-text">{PRODUCT_NAME}</span>
    </Link>
  );
}
