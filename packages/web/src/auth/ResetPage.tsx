import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { apiPost } from '../api/http';
import { t } from '../i18n/t';
import { describeAuthError } from '../login/errors';
import { MIN_PASSWORD_LENGTH } from '../login/LoginPage';
import { useDocumentTitle } from '../ui/useDocumentTitle';

/** `/auth/reset?token=`: checks the reset code (without using it), then sets the new password with it. */
export function ResetPage() {
  useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [email, setEmail] = useState<string | null>(null);
  const [phase, setPhase] = useState<'checking' | 'form' | 'done' | 'invalid'>('checking');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  useDocumentTitle(t('reset.title'));

  useEffect(() => {
    apiPost<{ email: string }>('/api/password-reset/verify', { token })
      .then((r) => {
        setEmail(r.email);
        setPhase('form');
      })
      .catch(() => setPhase('invalid'));
  }, [token]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password.length < MIN_PASSWORD_LENGTH) {
      setError(t('signUp.error.short', { min: MIN_PASSWORD_LENGTH }));
      return;
    }
    try {
      await apiPost('/api/auth/reset-password', { token, newPassword: password });
      setPhase('done');
    } catch (err) {
      setError(describeAuthError(err));
    }
  }

  return (
    <main className="login">
      <form className="login-card" onSubmit={(e) => void onSubmit(e)} noValidate>
        <h1 className="login-title">{t('reset.title')}</h1>
        {phase === 'checking' ? <p role="status">{t('reset.checking')}</p> : null}
        {phase === 'invalid' ? (
          <p className="form-error" role="alert">
            {t('reset.error.invalid')}
          </p>
        ) : null}
        {phase === 'done' ? (
          <p className="login-notice" role="status">
            {t('reset.done')}
          </p>
        ) : null}
        {phase === 'form' ? (
          <>
            <p className="login-subtitle">{t('reset.for', { email: email ?? '' })}</p>
            <label className="field">
              <span className="field-label">{t('reset.password')}</span>
              <input
                type="password"
                name="new-password"
                autoComplete="new-password"
                autoFocus
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <span className="field-hint">{t('signUp.passwordHint', { min: MIN_PASSWORD_LENGTH })}</span>
            </label>
            {error ? (
              <p className="form-error" role="alert">
                {error}
              </p>
            ) : null}
            <button type="submit" className="button button-primary">
              {t('reset.submit')}
            </button>
          </>
        ) : null}
        <Link to="/">{t('login.back')}</Link>
      </form>
    </main>
  );
}
