import { useCallback, useEffect, useState } from 'react';
import { apiGet } from '../api/http';

export type Loaded<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: string };

/** `GET path` as a loading / ready / error state with a reload (for retries and after writes). */
export function useLoad<T>(path: string | null): Loaded<T> & { reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!path) return undefined;
    const abort = new AbortController();
    apiGet<T>(path, abort.signal).then(
      (data) => setState({ status: 'ready', data }),
      (err: unknown) => {
        if (!abort.signal.aborted)
          setState({ status: 'error', error: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => abort.abort();
  }, [path, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
