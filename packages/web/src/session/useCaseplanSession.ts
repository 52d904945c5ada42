import { useSyncExternalStore } from 'react';
import type { Caseplan } from '@caseroom/protocol';
import { caseplanSession, type CaseplanSessionState } from './caseplanSession';

/** The product session (case plans, organizations, selection), bound to React. */
export function useCaseplanSession(): CaseplanSessionState {
  return useSyncExternalStore(caseplanSession.subscribe, caseplanSession.getSnapshot);
}

/** The selected case plan's record, when the session is loaded and one is selected. */
export function selectedCaseplanOf(state: CaseplanSessionState): Caseplan | null {
  if (state.status !== 'ready') return null;
  return state.caseplans.find((c) => c.id === state.session.selectedCaseplan) ?? null;
}
