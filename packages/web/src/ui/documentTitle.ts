import { t } from '../i18n/t';

/** What the tab title is made of: the screen's own title and the user's unread count. */
const parts: { screen: string | undefined; unread: number } = { screen: undefined, unread: 0 };

/**
 * The tab title: `<screen> · Caseroom` (or just the product name), with the unread count in front while there is
 * one — "(3) Chats · Caseroom" — so a person in another tab sees that messages wait.
 */
export function documentTitle(screen: string | undefined, unread: number): string {
  const title = screen ? `${screen} · ${t('app.name')}` : t('app.name');
  return unread > 0 ? t('app.title.unread', { count: unread, title }) : title;
}

/** Sets the screen's part of the tab title (undefined: the product name alone). */
export function setScreenTitle(screen: string | undefined): void {
  parts.screen = screen;
  document.title = documentTitle(parts.screen, parts.unread);
}

/** Sets the unread count shown in front of the tab title (0: none shown). */
export function setUnreadTitleCount(unread: number): void {
  parts.unread = unread;
  document.title = documentTitle(parts.screen, parts.unread);
}
