import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { SETUP_MIN_PASSWORD_LENGTH, type SetupResult } from '@caseroom/protocol';
import { ApiError, apiRequest, sessionToken } from '../api/http';
import { t } from '../i18n/t';
import { LanguagePicker } from '../login/LoginPage';
import { session } from '../session/session';
import { useSession } from '../session/useSession';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { markSetupDone, useSetupNeeded } from './setupStatus';
import './setup.css';

/**
 * `/setup`: the first run of a fresh installation. The first person creates their account and their
 * organization in one step (`POST /api/setup`), becomes its admin and the super-admin, and lands in the
 * organization signed in. Once anyone has an account, the page only points to sign-in.
 */
export function SetupPage() {
  useTranslation(); // re-render on language change
  useDocumentTitle(t('setup.title'));
  const needed = useSetupNeeded();
  const state = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const errorId = useId();

  if (needed === undefined) {
    return (
      <p className="page-message muted" role="status">
        {t('setup.checking')}
      </p>
    );
  }
  if (!needed || done) {
    if (state.status === 'signed-in' && !busy) return <Navigate to="/app" replace />;
    return (
      <main className="login">
        <div className="login-card">
          <h1 className="login-title">{t('setup.title')}</h1>
          <p role="status">{t('setup.done')}</p>
          <Link to="/" className="button button-primary">
            {t('setup.toSignIn')}
          </Link>
        </div>
      </main>
    );
  }

  async function submit(form: FormData) {
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const data = {
      name: value('name'),
      email: value('email'),
      password: String(form.get('password') ?? ''),
      organizationName: value('organizationName'),
    };
    if (!data.name || !data.email || !data.password || !data.organizationName) {
      return setError(t('setup.error.missing'));
    }
    if (data.password.length < SETUP_MIN_PASSWORD_LENGTH) {
      return setError(t('setup.error.short', { min: SETUP_MIN_PASSWORD_LENGTH }));
    }
    setBusy(true);
    setError(null);
    try {
      sessionToken.clear();
      const response = await apiRequest('/api/setup', { method: 'POST', body: JSON.stringify(data) });
      const result = (await response.json()) as SetupResult;
      sessionToken.set(result.token);
      markSetupDone();
      await session.completeSignIn('sign-up');
      void navigate(`/app/organizations/${encodeURIComponent(result.organizationId)}`, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.httpStatus === 409) {
        markSetupDone();
        setDone(true);
      }
      setError(err instanceof ApiError ? (err.toast ?? err.message) : String(err));
    } finally {
      setBusy(false);
    }
  }

  const described = error ? errorId : undefined;
  return (
    <main className="login">
      <form
        className="login-card setup-card"
        noValidate
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          void submit(new FormData(e.currentTarget));
        }}
      >
        <h1 className="login-title">{t('setup.title')}</h1>
        <p className="login-subtitle">{t('setup.intro')}</p>
        <Field label={t('setup.name')}>
          <input name="name" autoComplete="name" required autoFocus aria-describedby={described} />
        </Field>
        <Field label={t('setup.email')}>
          <input name="email" type="email" autoComplete="username" required aria-describedby={described} />
        </Field>
        <Field label={t('setup.password')} hint={t('setup.passwordHint', { min: SETUP_MIN_PASSWORD_LENGTH })}>
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            required
            aria-describedby={described}
          />
        </Field>
        <Field label={t('setup.organization')} hint={t('setup.organizationHint')}>
          <input name="organizationName" autoComplete="organization" required aria-describedby={described} />
        </Field>
        {error ? (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('setup.submitting') : t('setup.submit')}
        </button>
        <LanguagePicker />
      </form>
    </main>
  );
}

function Field({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      {children}
      {hint ? <span className="field-hint">{hint}</span> : null}
    </label>
  );
}
