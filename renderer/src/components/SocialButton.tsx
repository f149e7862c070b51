// "Sign in with Google" for the login and sign-up pages. While an action runs the button is disabled;
// the busy flag is released after 2 s (spec section 4). The sign-in itself is lib/social.ts.

import { useState, type ReactElement } from 'react';
import type { User } from '../../../shared/contract';
import { DELAYS } from '../../../shared/constants';
import { useSocialSignInAvailable } from '../hooks/useSocialSignInAvailable';
import { useTimers } from '../hooks/useTimers';
import { startSocialSignIn, type SocialError, type SocialPage } from '../lib/social';
import { GoogleMark } from './Icon';

type SocialButtonProps = Parameters<typeof SocialButton>[0];

/**
 * The social button and the divider under it, only when the server has a provider configured
 * (issue 17: a team server without one shows no button that can only fail).
 */
export function SocialSignIn({ divider, ...props }: SocialButtonProps & { divider: string }): ReactElement | null {
  const available = useSocialSignInAvailable();
  if (!available) return null;
  return (
    <>
      <SocialButton {...props} />
      <div className="divider" role="separator">
        <span>{divider}</span>
      </div>
    </>
  );
}

export function SocialButton({
  page,
  disabled,
  onError,
  onStart,
  onSignedIn,
  onTwoFactor,
}: {
  page: SocialPage;
  /** Another action of the page is in progress. */
  disabled: boolean;
  onError(error: SocialError): void;
  /** Called before the sign-in may complete (the page claims the post-sign-in redirect). */
  onStart?(): void;
  /** The desktop flow came back signed in (the browser flow continues on the return page). */
  onSignedIn?(user: User): void;
  /** The account has two-factor sign-in: the page asks for the code. */
  onTwoFactor?(step: { challenge: string; prompt: string }): void;
}): ReactElement {
  const [busy, setBusy] = useState(false);
  const timers = useTimers();
  const onClick = async () => {
    setBusy(true);
    timers.after(DELAYS.socialBusyReleaseMs, () => setBusy(false));
    onStart?.();
    const outcome = await startSocialSignIn(page);
    if (outcome.kind === 'error') onError({ message: outcome.message, hint: outcome.hint });
    else if (outcome.kind === 'signedIn') onSignedIn?.(outcome.user);
    else if (outcome.kind === 'twoFactor') onTwoFactor?.({ challenge: outcome.challenge, prompt: outcome.prompt });
  };
  return (
    <button
      type="button"
      className="button button-social"
      onClick={onClick}
      disabled={busy || disabled}
      data-testid="social-signin"
    >
      <GoogleMark />
      <span>{page === 'login' ? 'Sign in with Google' : 'Sign up with Google'}</span>
    </button>
  );
}
