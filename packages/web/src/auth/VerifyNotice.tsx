import { useState } from 'react';
import type { MeResponse } from '@caseroom/protocol';
import { apiPost } from '../api/http';
import { t } from '../i18n/t';
import { describeAuthError } from '../login/errors';
import { showToast } from '../ui/toast';
import './auth.css';

/**
 * Shown in the app while the signed-in user's e-mail address is unconfirmed: says so and sends the confirmation
 * link again on request (per-address limits apply on the server, answered with the rate-limit toast).
 */
export function VerifyNotice({ me }: { me: MeResponse }) {
  const [busy, setBusy] = useState(false);
  if (me.emailVerified) return null;

  async function resend() {
    setBusy(true);
    try {
      await apiPost('/api/auth/send-verification-email', { email: me.email });
      showToast(t('verify.resent'), 'info');
    } catch (err) {
      showToast(describeAuthError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="banner banner-warning verify-notice" aria-label={t('verify.region')}>
      <span>{t('verify.banner', { email: me.email })}</span>
      <button type="button" className="button button-small" onClick={() => void resend()} disabled={busy}>
        {busy ? t('verify.resending') : t('verify.resend')}
      </button>
    </section>
  );
}
