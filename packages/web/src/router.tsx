import { createBrowserRouter } from 'react-router-dom';
import { NotFound } from './app/NotFound';
import { LoginPage } from './login/LoginPage';

/**
 * Routes (product-spec §2): `/` login/logout, `/app/...` the authenticated area (loaded on demand, so the login
 * page stays small), `/_action` (magic-link target) arrives with issue 3.
 */
export const router = createBrowserRouter([
  { path: '/', Component: LoginPage },
  {
    path: '/app',
    lazy: async () => ({ Component: (await import('./app/AppLayout')).AppLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./chat/ChannelView')).NoChannel }) },
      {
        path: 'chat/:channelType/:channelId',
        lazy: async () => ({ Component: (await import('./chat/ChannelView')).ChannelRoute }),
      },
    ],
  },
  { path: '*', Component: NotFound },
]);
