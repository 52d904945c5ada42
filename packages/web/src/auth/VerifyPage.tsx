import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { apiGet } from '../api/http';
import { t } from '../i18n/t';
import { session } from '../session/session';
import { useDocumentTitle } from '../ui/useDocumentTitle';

/** `/auth/verify?token=`: confirms the e-mail address from the verification mail. */
export function VerifyPage() {
  useTranslation();
  const [params] = useSearchParams();
  const [status, setStatus] = useState<'checking' | 'done' | 'error'>('checking');
  const started = useRef(false);
  useDocumentTitle(t('verify.title'));
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = params.get('token') ?? '';
    apiGet(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)
      .then(async () => {
        setStatus('done');
        await session.refresh();
      })
      .catch(() => setStatus('error'));
  }, [params]);
  return (
    <main className="login">
      <div className="login-card">
        <h1 className="login-title">{t('verify.title')}</h1>
        <p
          role={status === 'error' ? 'alert' : 'status'}
          className={status === 'error' ? 'form-error' : 'login-notice'}
        >
          {status === 'checking'
            ? t('verify.checking')
            : status === 'done'
              ? t('verify.done')
              : t('verify.error')}
        </p>
        {status !== 'checking' ? <Link to="/app">{t('verify.continue')}</Link> : null}
      </div>
    </main>
  );
}
