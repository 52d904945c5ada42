import { useEffect, useState } from 'react';
import type { InviteInfo } from '@caseroom/protocol';
import { apiGet } from '../api/http';
import { t } from '../i18n/t';

export type InviteLookup =
  { status: 'none' } | { status: 'loading' } | { status: 'valid'; info: InviteInfo } | { status: 'invalid' };

/**
 * The invite token a visitor arrived with: `?invite=` on the page, or inside `?redirectTo=` (the mailed link
 * is `/?redirectTo=/app/organizations/<id>?invite=<token>`, see server `invite-mail.ts`).
 */
export function inviteTokenOf(params: URLSearchParams): string | null {
  const direct = params.get('invite');
  if (direct) return direct;
  const target = params.get('redirectTo');
  if (!target?.startsWith('/') || target.startsWith('//')) return null;
  return new URL(target, 'http://local').searchParams.get('invite');
}

/** Asks the server who invited the holder of `token` (`GET /api/invite?token=`); 404 means not valid (any more). */
export function useInviteInfo(token: string | null): InviteLookup {
  const [lookup, setLookup] = useState<InviteLookup>(token ? { status: 'loading' } : { status: 'none' });
  useEffect(() => {
    if (!token) return;
    let live = true;
    apiGet<InviteInfo>(`/api/invite?token=${encodeURIComponent(token)}`).then(
      (info) => live && setLookup({ status: 'valid', info }),
      () => live && setLookup({ status: 'invalid' }),
    );
    return () => {
      live = false;
    };
  }, [token]);
  return lookup;
}

/** Which organization invited the visitor, who, and as what: shown above the sign-up / sign-in form. */
export function InviteCard({ lookup }: { lookup: InviteLookup }) {
  if (lookup.status === 'none' || lookup.status === 'loading') return null;
  if (lookup.status === 'invalid') {
    return (
      <p className="invite-card invite-card-invalid" role="status">
        {t('onboarding.invite.invalid')}
      </p>
    );
  }
  const { organization, inviter, type, email } = lookup.info;
  return (
    <section className="invite-card" aria-labelledby="invite-card-title">
      <h2 id="invite-card-title" className="invite-card-title">
        {t('onboarding.invite.title', { organization })}
      </h2>
      <p>
        {inviter
          ? t('onboarding.invite.by', { inviter, organization })
          : t('onboarding.invite.anonymous', { organization })}
      </p>
      <p>{t(`onboarding.invite.as.${type}`)}</p>
      <p className="muted">{t('onboarding.invite.how', { email })}</p>
    </section>
  );
}
