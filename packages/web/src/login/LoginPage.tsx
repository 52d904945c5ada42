import { useId, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/http';
import { t } from '../i18n/t';
import { session } from '../session/session';
import { useSession } from '../session/useSession';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { safeRedirect } from './redirect';

/** `/`: e-mail + password sign-in; honours `?redirectTo=`; a signed-in visitor goes straight on. */
export function LoginPage() {
  const state = useSession();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirectTo'));
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  useDocumentTitle(t('login.title'));

  if (state.status === 'signed-in' && !busy) return <Navigate to={target} replace />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError(t('login.error.missing'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await session.signInWithEmail(email.trim(), password);
      navigate(target, { replace: true });
    } catch (err) {
      setError(describeSignInError(err));
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <form className="login-card" onSubmit={(e) => void onSubmit(e)} noValidate>
        <h1 className="login-title">{t('login.title')}</h1>
        <p className="login-subtitle">{t('login.subtitle')}</p>
        {state.status === 'signed-out' && state.reason === 'logout' ? (
          <p className="login-notice" role="status">
            {t('login.signedOut')}
          </p>
        ) : null}
        {state.status === 'loading' ? (
          <p className="muted" role="status">
            {t('app.loading')}
          </p>
        ) : null}
        <label className="field">
          <span className="field-label">{t('login.email')}</span>
          <input
            type="email"
            name="email"
            autoComplete="username"
            autoFocus
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('login.password')}</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </label>
        {error ? (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </main>
  );
}

function describeSignInError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.isNetworkError) return t('login.error.network');
    if (err.toast) return err.toast;
    if (err.httpStatus === 401) return t('login.error.invalid');
    if (err.httpStatus === 429) return t('login.error.rateLimited');
    if (err.httpStatus >= 400 && err.httpStatus < 500) return err.message;
    return t('login.error.generic', { message: err.message });
  }
  return t('login.error.generic', { message: err instanceof Error ? err.message : String(err) });
}
