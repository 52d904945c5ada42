import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { MeResponse } from '@caseroom/protocol';
import { VerifyNotice } from '../auth/VerifyNotice';
import { Toaster } from '../ui/toast';
import { t } from '../i18n/t';
import { caseplanSession } from '../session/caseplanSession';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import './setup.css';

/**
 * What a signed-in person with no organization sees (issue 15): their account is fine, an invitation is
 * what they need, and how it will reach them. "Check again" loads the session anew, which claims an invite
 * sent meanwhile to their verified address.
 */
export function NoOrganizationPage({ me, onLogout }: { me: MeResponse; onLogout: () => Promise<void> }) {
  useDocumentTitle(t('onboarding.noOrg.title'));
  const [checking, setChecking] = useState(false);
  const [checked, setChecked] = useState(false);
  const email = me.email;

  async function check() {
    setChecking(true);
    setChecked(false);
    try {
      await caseplanSession.load();
    } finally {
      setChecking(false);
      setChecked(true);
    }
  }

  return (
    <main className="login" id="main">
      <section className="login-card no-org-card" aria-labelledby="no-org-title">
        <h1 id="no-org-title" className="login-title">
          {t('onboarding.noOrg.title')}
        </h1>
        <p>
          {t('onboarding.noOrg.signedInAs')}{' '}
          <Link to="/app/profile" title={t('header.profile', { name: me.user.name?.trim() || email })}>
            {me.user.name?.trim() || email}
          </Link>
        </p>
        <p>{t('onboarding.noOrg.body', { email })}</p>
        <p>{t('onboarding.noOrg.next')}</p>
        {me.emailVerified ? null : <p className="muted">{t('onboarding.noOrg.verify')}</p>}
        {/* An invite is claimed for a confirmed address: the same notice as in the app, to send the link again. */}
        <VerifyNotice me={me} />
        <Toaster />
        {checked ? (
          <p className="login-notice" role="status">
            {t('onboarding.noOrg.still', { email })}
          </p>
        ) : null}
        <div className="no-org-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={checking}
            onClick={() => void check()}
          >
            {checking ? t('onboarding.noOrg.checking') : t('onboarding.noOrg.check')}
          </button>
          <button type="button" className="button" onClick={() => void onLogout()}>
            {t('header.logout')}
          </button>
        </div>
      </section>
    </main>
  );
}
