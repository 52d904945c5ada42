import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { MeResponse } from '@caseroom/protocol';
import { VerifyNotice } from '../auth/VerifyNotice';
import { t } from '../i18n/t';
import { PushHost } from '../push/PushHost';
import { logoutWithPush, push } from '../push/pushStore';
import { Avatar } from '../ui/Avatar';
import { Toaster } from '../ui/toast';

/**
 * The top bar: product name, who is signed in (linking to the profile), and logout; below it the notice of an
 * unconfirmed e-mail address. The app's toasts and push (toasts, device registration) are mounted here.
 */
export function AppHeader({ me, onLogout }: { me: MeResponse; onLogout: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const name = me.user.name?.trim() || me.email;
  const photo = typeof me.user.photo === 'string' && me.user.photo ? me.user.photo : null;

  async function logout() {
    setBusy(true);
    try {
      // Push goes first, while the session can still unregister the device (product-spec §4 "Logout").
      await logoutWithPush(push, onLogout);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <header className="app-header">
        <Link to="/app" className="app-brand">
          {t('app.name')}
        </Link>
        <div className="app-user">
          <Link to="/app/profile" className="app-user-link" title={t('header.profile', { name })}>
            <Avatar name={name} image={photo} />
            <span className="app-user-name">{name}</span>
          </Link>
          <button type="button" className="button" onClick={() => void logout()} disabled={busy}>
            {busy ? t('header.loggingOut') : t('header.logout')}
          </button>
        </div>
      </header>
      <VerifyNotice me={me} />
      <Toaster />
      <PushHost uid={me.uid} />
    </>
  );
}
