import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { apiPost } from '../api/http';
import { LANGUAGES, setLanguage, t, type Language } from '../i18n/t';
import { session } from '../session/session';
import { useSession } from '../session/useSession';
import { showToast, Toaster } from '../ui/toast';
import { useSetupNeeded } from '../setup/setupStatus';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { describeAuthError, describeSocialError, isAuthFault } from './errors';
import { safeRedirect } from './redirect';
import { InviteCard, inviteTokenOf, useInviteInfo } from './InviteCard';
import { SocialButtons } from './SocialButtons';
import './invite-card.css';
import './login.css';

/** Must match the server's minimum (better-auth `minPasswordLength`). */
export const MIN_PASSWORD_LENGTH = 8;

type Mode = 'sign-in' | 'sign-up' | 'magic' | 'forgot';

/**
 * `/`: sign in (e-mail + password, magic link, Google/Microsoft/Apple), sign up, forgot password. Honours
 * `?redirectTo=`; a signed-in visitor goes straight on.
 */
export function LoginPage() {
  useTranslation(); // re-render on language change
  const state = useSession();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirectTo'));
  const navigate = useNavigate();
  const [mode, setMode] = useState<Mode>('sign-in');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A social sign-in that came back refused: about the provider's answer, not the fields of this form.
  const [socialError, setSocialError] = useState(() =>
    params.get('socialError') ? describeSocialError(params.get('error')) : null,
  );
  const [notice, setNotice] = useState<string | null>(null);
  const errorId = useId();
  const title = {
    'sign-in': 'login.title',
    'sign-up': 'signUp.title',
    magic: 'magic.title',
    forgot: 'forgot.title',
  } as const;
  useDocumentTitle(t(title[mode]));
  // A fresh installation is set up first (issue 15); a mailed invite shows who invited whom, as what.
  const setupNeeded = useSetupNeeded();
  const invite = useInviteInfo(inviteTokenOf(params));
  const invitedEmail = invite.status === 'valid' ? invite.info.email : null;
  useEffect(() => {
    // Someone fresh from an invite mail most likely has no account yet: sign-up, with the invited address.
    if (!invitedEmail) return;
    setMode((m) => (m === 'sign-in' ? 'sign-up' : m));
    setEmail((e) => e || invitedEmail);
  }, [invitedEmail]);

  if (setupNeeded) return <Navigate to="/setup" replace />;
  if (state.status === 'signed-in' && !busy) return <Navigate to={target} replace />;

  function switchTo(next: Mode) {
    setMode(next);
    setError(null);
    setSocialError(null);
    setNotice(null);
  }

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    setSocialError(null);
    setNotice(null);
    try {
      await action();
    } catch (err) {
      if (isAuthFault(err)) showToast(describeAuthError(err));
      else setError(describeAuthError(err));
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (mode === 'sign-in') {
      if (!address || !password) return setError(t('login.error.missing'));
      void run(async () => {
        await session.signInWithEmail(address, password);
        navigate(target, { replace: true });
      });
    } else if (mode === 'sign-up') {
      if (!address || !password || !name.trim()) return setError(t('signUp.error.missing'));
      if (password.length < MIN_PASSWORD_LENGTH)
        return setError(t('signUp.error.short', { min: MIN_PASSWORD_LENGTH }));
      void run(async () => {
        await session.signUp(name.trim(), address, password);
        navigate(target, { replace: true });
      });
    } else if (mode === 'magic') {
      if (!address) return setError(t('login.error.missing'));
      void run(async () => {
        await session.sendMagicLink(address, target);
        setNotice(t('magic.sent', { email: address }));
      });
    } else {
      if (!address) return setError(t('login.error.missing'));
      void run(async () => {
        await apiPost('/api/auth/request-password-reset', { email: address, redirectTo: '/auth/reset' });
        setNotice(t('forgot.sent', { email: address }));
      });
    }
  }

  const submit = {
    'sign-in': busy ? t('login.submitting') : t('login.submit'),
    'sign-up': busy ? t('signUp.submitting') : t('signUp.submit'),
    magic: t('magic.submit'),
    forgot: t('forgot.submit'),
  }[mode];
  const described = error ? errorId : undefined;

  return (
    <main className="login">
      <Toaster />
      <form className="login-card" onSubmit={onSubmit} noValidate>
        <h1 className="login-title">{t(title[mode])}</h1>
        <p className="login-subtitle">
          {mode === 'magic' ? t('magic.intro') : mode === 'forgot' ? t('forgot.intro') : t('login.subtitle')}
        </p>
        {mode === 'sign-in' || mode === 'sign-up' ? <InviteCard lookup={invite} /> : null}
        {state.status === 'signed-out' && state.reason === 'logout' && mode === 'sign-in' ? (
          <p className="login-notice" role="status">
            {t('login.signedOut')}
          </p>
        ) : null}
        {mode === 'sign-up' ? (
          <Field label={t('signUp.name')}>
            <input name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
        ) : null}
        <Field label={t('login.email')}>
          <input
            type="email"
            name="email"
            autoComplete="username"
            autoFocus
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
          />
        </Field>
        {mode === 'sign-in' || mode === 'sign-up' ? (
          <Field
            label={t('login.password')}
            hint={mode === 'sign-up' ? t('signUp.passwordHint', { min: MIN_PASSWORD_LENGTH }) : undefined}
          >
            <input
              type="password"
              name="password"
              autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={described}
            />
          </Field>
        ) : null}
        {socialError ? (
          <p className="form-error" role="alert">
            {socialError}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {notice ? (
          <p className="login-notice" role="status">
            {notice}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {submit}
        </button>
        {mode === 'sign-in' || mode === 'sign-up' ? (
          <>
            <SocialButtons mode={mode} redirectTo={target} />
            <nav className="login-links" aria-label={t('login.or')}>
              {mode === 'sign-in' ? (
                <>
                  <button type="button" className="link-button" onClick={() => switchTo('magic')}>
                    {t('login.magicLink')}
                  </button>
                  <button type="button" className="link-button" onClick={() => switchTo('forgot')}>
                    {t('login.forgot')}
                  </button>
                  <button type="button" className="link-button" onClick={() => switchTo('sign-up')}>
                    {t('login.toSignUp')}
                  </button>
                </>
              ) : (
                <button type="button" className="link-button" onClick={() => switchTo('sign-in')}>
                  {t('login.toSignIn')}
                </button>
              )}
            </nav>
          </>
        ) : (
          <button type="button" className="link-button" onClick={() => switchTo('sign-in')}>
            {t('login.back')}
          </button>
        )}
        <LanguagePicker />
      </form>
    </main>
  );
}

function Field({ label, hint, children }: { label: string; hint?: string | undefined; children: ReactNode }) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      {children}
      {hint ? <span className="field-hint">{hint}</span> : null}
    </label>
  );
}

/** The interface language (English is the fallback for anything not translated). */
export function LanguagePicker() {
  const { i18n } = useTranslation();
  return (
    <label className="field field-inline">
      <span className="field-label">{t('login.language')}</span>
      <select value={i18n.language} onChange={(e) => void setLanguage(e.target.value as Language)}>
        {Object.entries(LANGUAGES).map(([code, label]) => (
          <option key={code} value={code}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
