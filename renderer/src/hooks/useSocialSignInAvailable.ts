// Whether the server (the local core, or the team server in use) has social sign-in configured:
// GET /api/environment once per server per page load. Until it answers, null (the button waits rather
// than flashing); when the check itself fails, true, so the button's own error says what is wrong.

import { useEffect, useState } from 'react';
import { getEnvironment } from '../api/apis';
import { serverUrl } from '../api/request';

const known = new Map<string, Promise<boolean>>();

function check(): Promise<boolean> {
  const key = serverUrl();
  let answer = known.get(key);
  if (!answer) {
    answer = getEnvironment()
      .then((res) => (res.ok ? res.data.socialSignIn !== false : true))
      .catch(() => true);
    known.set(key, answer);
  }
  return answer;
}

export function useSocialSignInAvailable(): boolean | null {
  const [available, setAvailable] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void check().then((v) => live && setAvailable(v));
    return () => {
      live = false;
    };
  }, []);
  return available;
}
