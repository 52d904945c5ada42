import { useCallback, useEffect, useState } from 'react';
import { apiGet } from '../api/http';
import { t, type MessageKey } from '../i18n/t';
import { session, type SocialProvider } from '../session/session';
import { showToast } from '../ui/toast';
import { describeAuthError } from './errors';

const ORDER: SocialProvider[] = ['google', 'microsoft', 'apple'];

type ProvidersState =
  { status: 'loading' } | { status: 'failed' } | { status: 'ready'; providers: SocialProvider[] };

/**
 * One button per configured provider (`/api/config` `authProviders`); none when nothing is configured. When the
 * configuration cannot be read it says so (with a retry) instead of hiding the buttons as if none existed.
 */
export function SocialButtons({ mode, redirectTo }: { mode: 'sign-in' | 'sign-up'; redirectTo: string }) {
  const [state, setState] = useState<ProvidersState>({ status: 'loading' });
  const load = useCallback((signal?: AbortSignal) => {
    setState({ status: 'loading' });
    apiGet<{ authProviders?: string[] }>('/api/config', signal)
      .then((c) =>
        setState({ status: 'ready', providers: ORDER.filter((p) => c.authProviders?.includes(p)) }),
      )
      .catch(() => {
        if (!signal?.aborted) setState({ status: 'failed' });
      });
  }, []);
  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal);
    return () => abort.abort();
  }, [load]);

  if (state.status === 'failed') {
    return (
      <div className="social-buttons" role="alert">
        <p>{t('login.social.unavailable')}</p>
        <button type="button" className="button" onClick={() => load()}>
          {t('app.retry')}
        </button>
      </div>
    );
  }
  if (state.status === 'loading' || state.providers.length === 0) return null;
  return (
    <div className="social-buttons">
      {state.providers.map((provider) => (
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
