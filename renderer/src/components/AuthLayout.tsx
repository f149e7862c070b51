// Frame of the sign-up, login, forgot and recover pages: a slim header and one centred card that
// fades in (the spec's entering state turns into entered after 10 ms).

import { useEffect, useState, type ReactElement, type ReactNode, type Ref } from 'react';
import { DELAYS } from '../../../shared/constants';
import { Logo } from './Logo';
import { ThemeToggle } from './ThemeToggle';

export function AuthLayout({
  title,
  subtitle,
  children,
  testId,
  cardRef,
  wide = false,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  testId: string;
  cardRef?: Ref<HTMLDivElement>;
  wide?: boolean;
}): ReactElement {
  const [phase, setPhase] = useState<'entering' | 'entered'>('entering');
  useEffect(() => {
    const t = setTimeout(() => setPhase('entered'), DELAYS.enteringAnimationMs);
    return () => clearTimeout(t);
  }, []);
  return (
    <div className="auth-page">
      <header className="auth-header">
        <div className="container header-inner">
          <Logo />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" className="auth-main">
        <div
          ref={cardRef}
          className={`auth-card ${phase}${wide ? ' auth-card-wide' : ''}`}
          data-testid={testId}
          data-phase={phase}
        >
          <h1 className="auth-title">{title}</h1>
          {subtitle && <p className="auth-subtitle">{subtitle}</p>}
          {children}
        </div>
      </main>
    </div>
  );
}
