import { useCallback, useSyncExternalStore } from 'react';
import type { Store } from '@caseroom/sdk';

/** Binds an SDK store to React: re-renders when it changes, reads its current snapshot. */
export function useStore<T>(store: Store<T>): T {
  const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
  const getSnapshot = useCallback(() => store.getSnapshot(), [store]);
  return useSyncExternalStore(subscribe, getSnapshot);
}
