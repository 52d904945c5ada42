import { createBrowserRouter } from 'react-router-dom';
import { NotFound } from './app/NotFound';
import { ActionPage } from './auth/ActionPage';
import { CompletePage } from './auth/CompletePage';
import { ResetPage } from './auth/ResetPage';
import { VerifyPage } from './auth/VerifyPage';
import { LoginPage } from './login/LoginPage';

/**
 * Routes (product-spec §2): `/` login/logout, `/app/...` the authenticated area (loaded on demand, so the login
 * page stays small), `/setup` the first run of a fresh installation, `/_action` the magic-link target, `/auth/*` verification, reset and social sign-in return.
 */
export const router = createBrowserRouter([
  { path: '/', Component: LoginPage },
  { path: '/setup', lazy: async () => ({ Component: (await import('./setup/SetupPage')).SetupPage }) },
  { path: '/_action', Component: ActionPage },
  { path: '/auth/verify', Component: VerifyPage },
  { path: '/auth/reset', Component: ResetPage },
  { path: '/auth/complete', Component: CompletePage },
  {
    path: '/app',
    lazy: async () => ({ Component: (await import('./app/AppLayout')).AppLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./chat/ChannelView')).NoChannel }) },
      {
        path: 'profile',
        lazy: async () => ({ Component: (await import('./auth/ProfilePage')).ProfilePage }),
      },
      {
        path: 'caseplans',
        lazy: async () => ({ Component: (await import('./caseplans/CaseplansPage')).CaseplansPage }),
      },
      {
        path: 'caseplans/:id',
        lazy: async () => ({ Component: (await import('./caseplans/CaseplanPage')).CaseplanPage }),
      },
      {
        path: 'organizations/:id?',
        lazy: async () => ({
          Component: (await import('./organizations/OrganizationAdminPage')).OrganizationAdminPage,
        }),
      },
      {
        path: 'organizations/:id/analytics',
        lazy: async () => ({ Component: (await import('./organizations/AnalyticsPage')).AnalyticsPage }),
      },
      {
        path: 'chat/:channelType/:channelId',
        lazy: async () => ({ Component: (await import('./chat/ChannelView')).ChannelRoute }),
      },
    ],
  },
  { path: '*', Component: NotFound },
]);
