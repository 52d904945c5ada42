import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { t } from '../i18n/t';
import { describeAuthError } from '../login/errors';
import { safeRedirect } from '../login/redirect';
import { MAGIC_LINK_EMAIL_KEY, session } from '../session/session';
import { Toaster } from '../ui/toast';
import { useDocumentTitle } from '../ui/useDocumentTitle';

/**
 * `/_action?token=&state=`: the magic link's target. Signs in with the address kept in local storage
 * (`magicLinkEmail`), or asks for it (the link opened on another device), then goes to `state` or `/app`.
 */
export function ActionPage() {
  useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const target = safeRedirect(params.get('state'));
  const [email, setEmail] = useState(() => localStorage.getItem(MAGIC_LINK_EMAIL_KEY) ?? '');
  const [asking, setAsking] = useState(() => !localStorage.getItem(MAGIC_LINK_EMAIL_KEY));
  const [error, setError] = useState<string | null>(token ? null : t('magic.error.invalid'));
  const started = useRef(false);
  useDocumentTitle(t('magic.title'));

  async function signIn(address: string) {
    setError(null);
    try {
      await session.signInWithMagicLink(token, address);
      navigate(target, { replace: true });
    } catch (err) {
      setError(describeAuthError(err));
      setAsking(true);
    }
  }

  useEffect(() => {
    if (started.current || asking || !token) return;
    started.current = true;
    void signIn(email);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, with the stored address
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (email.trim()) void signIn(email.trim());
  }

  return (
    <main className="login">
      <Toaster />
      <form className="login-card" onSubmit={onSubmit} noValidate>
        <h1 className="login-title">{asking ? t('magic.confirmTitle') : t('magic.title')}</h1>
        {asking ? (
          <>
            <p className="login-subtitle">{t('magic.confirmIntro')}</p>
            <label className="field">
              <span className="field-label">{t('login.email')}</span>
              <input
                type="email"
                name="email"
                autoComplete="username"
                autoFocus
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </label>
          </>
        ) : (
          <p className="muted" role="status">
            {t('magic.signingIn')}
          </p>
        )}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {asking ? (
          <button type="submit" className="button button-primary" disabled={!token}>
            {t('magic.confirmSubmit')}
          </button>
        ) : null}
        <a href="/">{t('login.back')}</a>
      </form>
    </main>
  );
}
