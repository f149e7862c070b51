// "Continue with Google" for the login and sign-up pages. While an action runs the button is
// disabled; the busy flag is released after 2 s (spec section 4).

import { useState, type ReactElement } from 'react';
import { DELAYS } from '../../../shared/constants';
import { useTimers } from '../hooks/useTimers';
import { startSocialSignIn, type SocialError, type SocialPage } from '../lib/social';
import { GoogleMark } from './Icon';

export function SocialButton({
  page,
  disabled,
  onError,
}: {
  page: SocialPage;
  /** Another action of the page is in progress. */
  disabled: boolean;
  onError(error: SocialError): void;
}): ReactElement {
  const [busy, setBusy] = useState(false);
  const timers = useTimers();
  const onClick = async () => {
    setBusy(true);
    timers.after(DELAYS.socialBusyReleaseMs, () => setBusy(false));
    const error = await startSocialSignIn(page);
    if (error) onError(error);
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
