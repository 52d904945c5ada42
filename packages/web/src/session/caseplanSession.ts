import { PRODUCT_CONSTANTS, type Caseplan, type SessionState } from '@caseroom/protocol';
import { ApiError, apiGet, callFunction } from '../api/http';
import { t } from '../i18n/t';
import { showToast } from '../ui/toast';

/**
 * The product session of product-spec §4: the user's case plans and organizations and which of each is
 * selected. The server keeps the selection (`session-load`, `session-selectCaseplan`,
 * `session-selectOrganization`), records `lastOpenedAt` and enforces access; this store mirrors it.
 */
export type CaseplanSessionState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; session: SessionState; caseplans: Caseplan[] }
  | { status: 'error'; error: string };

/** What the store needs from the outside world (replaced by fakes in tests). */
export interface CaseplanSessionDeps {
  call<T>(name: string, data?: unknown): Promise<T>;
  get<T>(path: string): Promise<T>;
  toast(text: string): void;
  log(message: string, detail?: unknown): void;
}

export type CaseplanSession = ReturnType<typeof createCaseplanSession>;

/** Builds a session store; the app uses the one instance {@link caseplanSession}. */
export function createCaseplanSession(deps: CaseplanSessionDeps) {
  let state: CaseplanSessionState = { status: 'idle' };
  let generation = 0;
  const listeners = new Set<() => void>();

  const set = (next: CaseplanSessionState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const ready = () => (state.status === 'ready' ? state : null);
  const fail = (err: unknown) => {
    deps.toast(err instanceof ApiError ? (err.toast ?? err.message) : String(err));
  };

  async function fetchAll(session: Promise<SessionState>): Promise<void> {
    const mine = ++generation;
    if (state.status !== 'ready') set({ status: 'loading' });
    try {
      const [loaded, caseplans] = await Promise.all([session, deps.get<Caseplan[]>('/api/caseplans')]);
      if (mine === generation) set({ status: 'ready', session: loaded, caseplans });
    } catch (err) {
      if (mine !== generation) return;
      deps.log('loading the session failed', err);
      set({ status: 'error', error: err instanceof Error ? err.message : String(err) });
    }
  }

  const store = {
    getSnapshot: (): CaseplanSessionState => state,

    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /**
     * Initialization (product-spec §4): the server loads the user, their case plans and organizations, claims
     * their open invites (`invite`: the token of a mailed invite link) and selects the first case plan and
     * organization when none is selected.
     */
    load(invite?: string | null): Promise<void> {
      return fetchAll(deps.call<SessionState>('session-load', invite ? { invite } : undefined));
    },

    /** Re-reads the session and the case plans (after a case plan was created, say). */
    reload(): Promise<void> {
      return fetchAll(deps.call<SessionState>('session-load'));
    },

    /** Forgets everything (logout). */
    reset(): void {
      generation += 1;
      set({ status: 'idle' });
    },

    /**
     * Selects a case plan: the server checks access, a role and a team, and records `lastOpenedAt`. Errors
     * ('User has no role on caseplan', ...) are toasts; answers whether the selection took.
     */
    async selectCaseplan(id: string): Promise<boolean> {
      const current = ready();
      if (!current) {
        deps.toast(t('session.error.userNotLoaded'));
        return false;
      }
      if (!current.caseplans.some((c) => c.id === id)) {
        deps.toast(t('session.error.caseplanNotLoaded'));
        return false;
      }
      if (current.session.selectedCaseplan === id) return true;
      try {
        const session = await deps.call<SessionState>('session-selectCaseplan', { caseplanId: id });
        const now = ready();
        if (now) set({ ...now, session });
        return true;
      } catch (err) {
        fail(err);
        return false;
      }
    },

    /** Selects an organization the session holds ('Organization was not loaded into the session' else). */
    async selectOrganization(id: string): Promise<boolean> {
      const current = ready();
      if (!current) {
        deps.toast(t('session.error.userNotLoaded'));
        return false;
      }
      if (!current.session.organizations.includes(id)) {
        deps.toast(t('session.error.organizationNotLoaded'));
        return false;
      }
      if (current.session.selectedOrganization === id) return true;
      try {
        const session = await deps.call<SessionState>('session-selectOrganization', { organizationId: id });
        const now = ready();
        if (now) set({ ...now, session });
        return true;
      } catch (err) {
        fail(err);
        return false;
      }
    },

    /**
     * Waits until case plan `id` is loaded into the session (product-spec §4): true once it is, false after
     * `timeoutMs` (10000 ms), which is logged. A plan missing from a finished load triggers one reload, for a
     * plan made a moment ago.
     */
    waitForCaseplan(
      id: string,
      timeoutMs: number = PRODUCT_CONSTANTS.caseplanLoadTimeoutMs,
    ): Promise<boolean> {
      const has = () => ready()?.caseplans.some((c) => c.id === id) === true;
      if (has()) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        let reloaded = false;
        const check = () => {
          if (has()) return finish(true);
          if (state.status === 'ready' && !reloaded) {
            reloaded = true;
            void store.reload();
          }
        };
        const timer = setTimeout(() => {
          deps.log(`waiting for caseplan ${id} timed out after ${timeoutMs} ms`);
          finish(false);
        }, timeoutMs);
        const unsubscribe = store.subscribe(check);
        function finish(result: boolean) {
          clearTimeout(timer);
          unsubscribe();
          resolve(result);
        }
        check();
      });
    },
  };
  return store;
}

/** The app's product session. */
export const caseplanSession = createCaseplanSession({
  call: callFunction,
  get: (path) => apiGet(path),
  toast: (text) => showToast(text),
  // product-spec §4 and §8: a failed wait is logged (the browser console is the web app's log).
  // eslint-disable-next-line no-console
  log: (message, detail) => console.error(message, detail ?? ''),
});
