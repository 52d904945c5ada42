import type { Page } from 'playwright-core';

/** Demo accounts of the seeded data (README; packages/server/src/product/seed/demo-data.ts). */
export const DEMO_PASSWORD = 'caseroom-demo';
export const DEMO = {
  admin: { email: 'admin@caseroom.test', name: 'Alex Morgan' },
  maria: { email: 'maria@caseroom.test', name: 'Maria Lopez' },
  noah: { email: 'noah@caseroom.test', name: 'Noah Kim' },
  chloe: { email: 'chloe@caseroom.test', name: 'Chloe Bennett' },
  gary: { email: 'gary@caseroom.test', name: 'Gary Ford' },
} as const;

/** Fills and submits the login form on the current page (which must show it). */
export async function submitLogin(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in from `/` and waits for the app shell. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/');
  await submitLogin(page, email, password);
  await page.waitForURL((url) => url.pathname.startsWith('/app'));
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

/** Opens the chat titled `title` from the channel list and waits until its composer is ready. */
export async function openChannel(page: Page, title: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Chats' })
    .getByRole('link')
    .filter({ has: page.getByText(title, { exact: true }) })
    .click();
  await page.waitForURL((url) => url.pathname.startsWith('/app/chat/'));
  await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
  await composer(page).waitFor();
}

/** The message input of the open channel. */
export function composer(page: Page) {
  return page.getByRole('textbox', { name: 'Message' });
}

/** The list item of the message with exactly `text` in the open channel. */
export function messageItem(page: Page, text: string) {
  return page
    .getByRole('log', { name: 'Messages' })
    .getByRole('listitem')
    .filter({ has: page.getByText(text, { exact: true }) });
}
