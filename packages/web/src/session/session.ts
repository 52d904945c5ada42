import type { MeResponse } from '@caseroom/protocol';
import { ApiError, apiGet, apiPost, apiRequest, sessionToken, setUnauthorizedHandler } from '../api/http';

/** Who is using the app: unknown while `/api/me` loads, then signed in or out. */
export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; /** `logout` when the user just logged out here. */ reason?: 'logout' }
  | { status: 'signed-in'; me: MeResponse }
  | { status: 'error'; error: string };

type Listener = () => void;

let state: SessionState = { status: 'loading' };
const listeners = new Set<Listener>();
let pending: Promise<void> | undefined;

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** The session as an observable store, bound in React with `useSyncExternalStore`. */
export const session = {
  getSnapshot(): SessionState {
    return state;
  },

  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /**
   * (Re)loads the signed-in user: `get-session` answers `null` without a session (no failed request to log),
   * then `/api/me` gives the user and claims; a 401 there also means signed out.
   */
  refresh(): Promise<void> {
    pending ??= (async () => {
      try {
        const current = await apiGet<unknown>('/api/auth/get-session');
        if (!current) {
          sessionToken.clear();
          setState({ status: 'signed-out' });
          return;
        }
        const me = await apiGet<MeResponse>('/api/me');
        setState({ status: 'signed-in', me });
      } catch (err) {
        if (err instanceof ApiError && (err.httpStatus === 401 || err.httpStatus === 403)) {
          sessionToken.clear();
          setState({ status: 'signed-out' });
        } else {
          setState({ status: 'error', error: err instanceof Error ? err.message : String(err) });
        }
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  },

  /** Signs in with e-mail and password, keeps the bearer token, then loads the user. Throws `ApiError`. */
  async signInWithEmail(email: string, password: string): Promise<void> {
    const response = await fetchSignIn(email, password);
    const body = (await response.json().catch(() => ({}))) as { token?: string };
    const token = response.headers.get('set-auth-token') ?? body.token;
    if (token) sessionToken.set(token);
    await session.refresh();
    if (state.status !== 'signed-in') {
      // Signed in, yet the session did not load: a server or network fault, not wrong credentials.
      const reason = state.status === 'error' ? state.error : 'the session did not load';
      throw new ApiError(reason, state.status === 'error' ? 0 : 500);
    }
  },

  /** Ends the session on the server (best effort) and forgets it here. */
  async signOut(): Promise<void> {
    try {
      await apiPost('/api/auth/sign-out');
    } catch {
      // Already gone on the server or unreachable: the local session ends regardless.
    }
    sessionToken.clear();
    setState({ status: 'signed-out', reason: 'logout' });
  },
};

function fetchSignIn(email: string, password: string): Promise<Response> {
  // A stale bearer token must not ride along on a fresh sign-in.
  sessionToken.clear();
  return apiRequest('/api/auth/sign-in/email', {
    method: 'POST',
    body: JSON.stringify({ email, password }),
  });
}

// A 401 from any API call means the session is gone: reload it, which signs out and sends the user to login.
setUnauthorizedHandler(() => {
  if (state.status === 'signed-in') void session.refresh();
});
