import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { Organization } from '@caseroom/protocol';
import { useLoad } from '../caseplans/useLoad';
import { t } from '../i18n/t';
import { useCaseplanSession } from '../session/useCaseplanSession';
import { hasOrganizationAdmin } from './staffArea';

/**
 * The "Organization admin" entry of the app's navigation (with its separator), shown only to people with
 * something to do there (see {@link hasOrganizationAdmin}); nothing while the organizations load, so a client never
 * sees it flash.
 */
export function OrganizationAdminNavLink() {
  const session = useCaseplanSession();
  const ready = session.status === 'ready';
  // After the session loaded (it claims open invites); again when the user's organizations change.
  const orgKey = ready ? session.session.organizations.join(',') : null;
  const organizations = useLoad<Organization[]>(ready ? '/api/organizations' : null);
  const { reload } = organizations;
  const loadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (orgKey === null) return;
    // The first ready state loads through the path above; a later change of organizations loads again.
    if (loadedFor.current !== null && loadedFor.current !== orgKey) reload();
    loadedFor.current = orgKey;
  }, [orgKey, reload]);
  if (organizations.status !== 'ready' || !hasOrganizationAdmin(organizations.data)) return null;
  return (
    <>
      {' · '}
      <Link to="/app/organizations">{t('domain.nav.organization')}</Link>
    </>
  );
}
