import type { MeResponse } from '@caseroom/protocol';
import {
  ApiError,
  apiGet,
  apiPost,
  apiRequest,
  callFunction,
  sessionToken,
  setUnauthorizedHandler,
} from '../api/http';

/** Local-storage key of the address a magic link was sent to (product-spec §4). */
export const MAGIC_LINK_EMAIL_KEY = 'magicLinkEmail';

export type SocialProvider = 'google' | 'microsoft' | 'apple';

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

  /** (Re)loads the signed-in user (see `load`); calls while one is under way share it. */
  refresh(): Promise<void> {
    pending ??= load();
    return pending;
  },

  /**
   * The first load at start-up, before anything renders. With a session token in the browser, `/api/me` is asked
   * for beside `get-session` instead of after it (a 401 there changes nothing while the session is loading); its
   * answer counts only if `get-session` finds the user, and a failed one is asked for again, in sequence as
   * `refresh()` does.
   */
  start(): void {
    if (state.status !== 'loading' || pending) return;
    let early: Promise<MeResponse> | undefined;
    if (sessionToken.get()) {
      early = apiGet<MeResponse>('/api/me');
      // Unused when there is no session; not an unhandled rejection then.
      early.catch(() => undefined);
    }
    pending = load(early);
  },

  /** Signs in with e-mail and password, keeps the bearer token, then loads the user. Throws `ApiError`. */
  async signInWithEmail(email: string, password: string): Promise<void> {
    await adopt(await fetchSignIn(email, password));
    // The user record's lastLogin (or creation, for an account made elsewhere); a failure is not fatal here.
    await callFunction('users-completeSignIn', { mode: 'sign-in' }).catch(() => undefined);
    await session.refresh();
    if (state.status !== 'signed-in') {
      // Signed in, yet the session did not load: a server or network fault, not wrong credentials.
      const reason = state.status === 'error' ? state.error : 'the session did not load';
      throw new ApiError(reason, state.status === 'error' ? 0 : 500);
    }
  },

  /** Creates an e-mail + password account (a verification mail goes out), signs in and loads the user. */
  async signUp(name: string, email: string, password: string): Promise<void> {
    sessionToken.clear();
    const response = await apiRequest('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({ name, email, password }),
    });
    await adopt(response);
    await session.completeSignIn('sign-up');
  },

  /** E-mails a sign-in link; remembers the address here for when the link is opened on this device. */
  async sendMagicLink(email: string, state?: string): Promise<void> {
    await apiPost('/api/auth/sign-in/magic-link', { email, ...(state ? { metadata: { state } } : {}) });
    localStorage.setItem(MAGIC_LINK_EMAIL_KEY, email);
  },

  /** Signs in with a magic link's token and the address it was sent to. Throws `ApiError` on refusal. */
  async signInWithMagicLink(token: string, email: string): Promise<void> {
    sessionToken.clear();
    const query = new URLSearchParams({ token, email });
    // A used or expired link answers a redirect (to an error page): not followed, it is a refusal.
    const response = await fetch(`/api/auth/magic-link/verify?${query.toString()}`, { redirect: 'manual' });
    if (
      response.type === 'opaqueredirect' ||
      response.status === 0 ||
      (response.status >= 300 && response.status < 400)
    )
      throw new ApiError('INVALID_TOKEN', 400, 'INVALID_TOKEN');
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
      throw new ApiError(body.message ?? 'Sign-in failed', response.status, body.code);
    }
    await adopt(response);
    localStorage.removeItem(MAGIC_LINK_EMAIL_KEY);
    await session.completeSignIn('sign-up');
  },

  /**
   * The login flow's second step: creates the user record of a new account, stamps lastLogin otherwise; in
   * sign-in-only mode a just-created social account is refused ('Account not found', with a toast).
   */
  async completeSignIn(mode: 'sign-in' | 'sign-up'): Promise<void> {
    try {
      await callFunction('users-completeSignIn', { mode });
    } catch (err) {
      sessionToken.clear();
      setState({ status: 'signed-out' });
      throw err;
    }
    await session.refresh();
    if (state.status !== 'signed-in') throw new ApiError('Account not loaded', 500);
  },

  /** Leaves for the provider (OpenID Connect); it comes back to `/auth/complete`. */
  async startSocial(
    provider: SocialProvider,
    mode: 'sign-in' | 'sign-up',
    redirectTo: string,
  ): Promise<void> {
    const back = (m: string) => `/auth/complete?${new URLSearchParams({ mode: m, redirectTo }).toString()}`;
    const answer = await apiPost<{ url?: string }>('/api/auth/sign-in/social', {
      provider,
      callbackURL: back('sign-in'),
      newUserCallbackURL: back(mode),
      errorCallbackURL: '/?socialError=1',
      disableRedirect: true,
    });
    if (answer?.url) window.location.assign(answer.url);
  },

  /**
   * Logs out: the app unmounts first (the session is 'loading' meanwhile, so the chat starting in it is torn down
   * and asks nothing more of the session), then the server session ends (best effort), then the state is
   * signed out and the login page shows. `refresh()` calls meanwhile wait for this instead of racing it.
   */
  signOut(): Promise<void> {
    pending = (async () => {
      setState({ status: 'loading' });
      await new Promise((resolve) => setTimeout(resolve, 0)); // let React commit the unmount
      try {
        await apiPost('/api/auth/sign-out');
      } catch {
        // Already gone on the server or unreachable: the local session ends regardless.
      }
      sessionToken.clear();
      setState({ status: 'signed-out', reason: 'logout' });
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  },
};

/**
 * (Re)loads the signed-in user: `get-session` answers `null` without a session (no failed request to log), then
 * `/api/me` (or `earlyMe`, asked for beside it) gives the user and claims; a 401 there also means signed out.
 */
async function load(earlyMe?: Promise<MeResponse>): Promise<void> {
  try {
    const current = await apiGet<{ user?: unknown } | null>('/api/auth/get-session');
    if (!current) {
      sessionToken.clear();
      setState({ status: 'signed-out' });
      return;
    }
    // A session without its user (product-spec §8 'Not user'): nothing to sign in as.
    if (!current.user) throw new ApiError('Not user', 500);
    const me = await (earlyMe?.catch(() => apiGet<MeResponse>('/api/me')) ?? apiGet<MeResponse>('/api/me'));
    if (!me.uid) throw new ApiError('Unknown user id', 500);
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
}

/**
 * Keeps the bearer token of a sign-in answer. An answer without the signed-in user is refused with product-spec
 * §8's 'User not found in credentials' (shown as a toast: it is a fault, not a wrong password).
 */
async function adopt(response: Response): Promise<void> {
  const body = (await response.json().catch(() => ({}))) as { token?: string; user?: { id?: string } };
  if (!body.user?.id) throw new ApiError('User not found in credentials', 500);
  const token = response.headers.get('set-auth-token') ?? body.token;
  if (token) sessionToken.set(token);
}

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
