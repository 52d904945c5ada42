import { useEffect, useState } from 'react';
import { apiGet } from '../api/http';
import { t, type MessageKey } from '../i18n/t';
import { session, type SocialProvider } from '../session/session';
import { showToast } from '../ui/toast';
import { describeAuthError } from './errors';

const ORDER: SocialProvider[] = ['google', 'microsoft', 'apple'];

/** One button per configured provider (`/api/config` `authProviders`); none when nothing is configured. */
export function SocialButtons({ mode, redirectTo }: { mode: 'sign-in' | 'sign-up'; redirectTo: string }) {
  const [providers, setProviders] = useState<SocialProvider[]>([]);
  useEffect(() => {
    apiGet<{ authProviders?: string[] }>('/api/config')
      .then((c) => setProviders(ORDER.filter((p) => c.authProviders?.includes(p))))
      .catch(() => setProviders([]));
  }, []);
  if (providers.length === 0) return null;
  return (
    <div className="social-buttons">
      {providers.map((provider) => (
        <button
          key={provider}
          type="button"
          className={`button button-social button-${provider}`}
          onClick={() =>
            void session
              .startSocial(provider, mode, redirectTo)
              .catch((e: unknown) => showToast(describeAuthError(e)))
          }
        >
          {t(`login.social.${mode === 'sign-up' ? 'signUp.' : ''}${provider}` as MessageKey)}
        </button>
      ))}
    </div>
  );
}
