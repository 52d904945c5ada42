import { useCallback, useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation, useMatch, useNavigate } from 'react-router-dom';
import type { MeResponse } from '@caseroom/protocol';
import { ChannelList } from '../chat/ChannelList';
import { useChat } from '../chat/ChatContext';
import type { ChatOutletContext } from '../chat/ChannelView';
import { ChatProvider, chatUserOf } from '../chat/ChatProvider';
import { ConnectionBanner } from '../chat/ConnectionBanner';
import { t } from '../i18n/t';
import { OrganizationAdminNavLink } from '../organizations/OrganizationAdminNavLink';
import { loginUrlFor } from '../login/redirect';
import { caseplanSession } from '../session/caseplanSession';
import { NoOrganizationPage } from '../setup/NoOrganizationPage';
import { session } from '../session/session';
import { selectedCaseplanOf, useCaseplanSession } from '../session/useCaseplanSession';
import { useSession } from '../session/useSession';
import { AppHeader } from './AppHeader';
import { CaseplanSwitcher } from './CaseplanSwitcher';

/** `/app/*`: only for a signed-in user (others go to the login page and come back), with the chat connected. */
export function AppLayout() {
  const state = useSession();
  const location = useLocation();

  if (state.status === 'loading') {
    return (
      <p className="page-message muted" role="status">
        {t('app.loading')}
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="page-message" role="alert">
        <p>{t('session.error')}</p>
        <button type="button" className="button" onClick={() => void session.refresh()}>
          {t('app.retry')}
        </button>
      </div>
    );
  }
  if (state.status === 'signed-out') {
    const to = state.reason === 'logout' ? '/' : loginUrlFor(location.pathname + location.search);
    return <Navigate to={to} replace />;
  }
  const { me } = state;
  return (
    <ChatProvider user={chatUserOf(me)}>
      <AppShell me={me} />
    </ChatProvider>
  );
}

function AppShell({ me }: { me: MeResponse }) {
  const chat = useChat();
  const caseplans = useCaseplanSession();
  const selected = selectedCaseplanOf(caseplans);
  useStartSession(me.uid);
  const inChannel = useMatch('/app/chat/:channelType/:channelId') !== null;
  // Product pages (case plans, organization, profile) take the main column; on phones they replace the list.
  const atIndex = useMatch('/app') !== null;
  const inPage = !inChannel && !atIndex;

  const logout = useCallback(async () => {
    // Chat first, then the session (product-spec §4, "Logout"); chat teardown errors are swallowed.
    if (chat.status === 'ready') await chat.client.disconnectUser().catch(() => undefined);
    caseplanSession.reset();
    await session.signOut();
  }, [chat]);

  // Signed in but in no organization (and not a super-admin who could create one): an empty app with forms
  // that fail helps nobody; the person needs an invitation (issue 15).
  // Their own profile (name, language, photo) stays theirs to open.
  const atProfile = useMatch('/app/profile') !== null;
  if (
    caseplans.status === 'ready' &&
    caseplans.session.organizations.length === 0 &&
    !me.policies.createOrganization &&
    !atProfile
  ) {
    return <NoOrganizationPage me={me} onLogout={logout} />;
  }

  return (
    <div className="app">
      <AppHeader me={me} onLogout={logout} />
      <ConnectionBanner />
      <div className="app-body" data-in-channel={inChannel || undefined} data-in-page={inPage || undefined}>
        <aside className="sidebar">
          <CaseplanSwitcher state={caseplans} />
          <nav className="domain-nav" aria-label={t('domain.nav.caseplans')}>
            <Link to="/app/caseplans">{t('domain.nav.caseplans')}</Link>
            <OrganizationAdminNavLink />
          </nav>
          {chat.status === 'ready' ? (
            <ChannelList
              client={chat.client}
              userId={chat.userId}
              caseplan={selected ? { id: selected.id, name: selected.name } : null}
            />
          ) : null}
        </aside>
        <main className="chat-main" id="main">
          <Outlet context={{ caseplanId: selected?.id ?? null } satisfies ChatOutletContext} />
        </main>
      </div>
    </div>
  );
}

/**
 * Starts the product session once per signed-in user (product-spec §4, "On an auth state change with a uid,
 * the product starts the session"). An `?invite=` token from a mailed invite link goes along, so the invite
 * is claimed, and then leaves the address bar.
 */
function useStartSession(uid: string) {
  const location = useLocation();
  const navigate = useNavigate();
  const invite = new URLSearchParams(location.search).get('invite');
  useEffect(() => {
    void caseplanSession.load(invite);
    if (invite) {
      const rest = new URLSearchParams(location.search);
      rest.delete('invite');
      const search = rest.toString();
      void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
    }
    // Once per user: the invite and location of the first render are what counts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uid]);
}
