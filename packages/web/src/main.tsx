import './no-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { router } from './router';
import { session } from './session/session';
import './styles.css';

// The sign-in page and the app need the session first: it is asked for now, beside the first render, not after it.
// The other addresses (magic link, verification, reset, social return) sign in first and load it themselves.
if (/^\/(app(\/|$)|$)/.test(location.pathname)) session.start();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
