import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { t } from '../i18n/t';
import { describeAuthError } from '../login/errors';
import { safeRedirect } from '../login/redirect';
import { session } from '../session/session';
import { showToast } from '../ui/toast';

/**
 * `/auth/complete?mode=&redirectTo=`: where a social sign-in comes back. Creates the user record of a new
 * account (or refuses it in sign-in-only mode, with the 'No account found for {email}' toast) and goes on.
 */
export function CompletePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const mode = params.get('mode') === 'sign-up' ? 'sign-up' : 'sign-in';
    session
      .completeSignIn(mode)
      .then(() => navigate(safeRedirect(params.get('redirectTo')), { replace: true }))
      .catch((err: unknown) => {
        showToast(describeAuthError(err));
        navigate('/', { replace: true });
      });
  }, [navigate, params]);
  return (
    <main className="login">
      <p className="muted" role="status">
        {t('complete.working')}
      </p>
    </main>
  );
}
