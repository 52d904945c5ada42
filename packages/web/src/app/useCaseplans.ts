import { useCallback, useEffect, useState } from 'react';
import type { Caseplan } from '@caseroom/protocol';
import { apiGet } from '../api/http';

export type CaseplansState =
  { status: 'loading' } | { status: 'ready'; caseplans: Caseplan[] } | { status: 'error'; error: string };

/** The signed-in user's case plans from `GET /api/caseplans`, with a reload for retries. */
export function useCaseplans(): CaseplansState & { reload: () => void } {
  const [state, setState] = useState<CaseplansState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    apiGet<Caseplan[]>('/api/caseplans', abort.signal).then(
      (caseplans) => setState({ status: 'ready', caseplans }),
      (err: unknown) => {
        if (!abort.signal.aborted) {
          setState({ status: 'error', error: err instanceof Error ? err.message : String(err) });
        }
      },
    );
    return () => abort.abort();
  }, [attempt]);

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { ...state, reload };
}

const SELECTED_KEY = 'caseroom.caseplan';

/**
 * The selected case plan: the remembered one if the user still has it, else the first (product-spec §4:
 * "If none is selected, the first case plan ... is selected automatically").
 */
export function useSelectedCaseplan(caseplans: readonly Caseplan[] | undefined) {
  const [chosen, setChosen] = useState<string | null>(() => readSelected());
  const selected = caseplans?.find((c) => c.id === chosen) ?? caseplans?.[0] ?? null;
  const select = useCallback((id: string) => {
    setChosen(id);
    try {
      localStorage.setItem(SELECTED_KEY, id);
    } catch {
      // storage unavailable: the choice lasts for this page only
    }
  }, []);
  return { selected, select };
}

function readSelected(): string | null {
  try {
    return localStorage.getItem(SELECTED_KEY);
  } catch {
    return null;
  }
}
