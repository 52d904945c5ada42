import { useEffect, useState } from 'react';
import type { SetupStatus } from '@caseroom/protocol';
import { apiGet } from '../api/http';

let known: boolean | undefined;
let pending: Promise<boolean> | undefined;

/**
 * Whether this installation still waits for its first person (`GET /api/setup`), asked once per page load.
 * A failed answer counts as "set up": the login page then shows as usual, and its own errors say what is wrong.
 */
export function fetchSetupNeeded(): Promise<boolean> {
  if (known !== undefined) return Promise.resolve(known);
  pending ??= apiGet<SetupStatus>('/api/setup')
    .then((s) => (known = s.needed))
    .catch(() => false)
    .finally(() => (pending = undefined));
  return pending;
}

/** After a successful setup (or a 409 from a setup that lost a race): setup is no longer needed. */
export function markSetupDone(): void {
  known = false;
}

/** `undefined` while asking, then whether setup is needed. */
export function useSetupNeeded(): boolean | undefined {
  const [needed, setNeeded] = useState<boolean | undefined>(known);
  useEffect(() => {
    let live = true;
    void fetchSetupNeeded().then((n) => live && setNeeded(n));
    return () => {
      live = false;
    };
  }, []);
  return needed;
}
