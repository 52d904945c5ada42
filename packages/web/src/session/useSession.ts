import { useEffect, useSyncExternalStore } from 'react';
import { session, type SessionState } from './session';

/** The current session; loads it on first use. */
export function useSession(): SessionState {
  const state = useSyncExternalStore(session.subscribe, session.getSnapshot);
  useEffect(() => {
    if (state.status === 'loading') void session.refresh();
  }, [state.status]);
  return state;
}
