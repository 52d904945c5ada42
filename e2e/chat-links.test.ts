import http from 'node:http';
import type net from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { launchBrowser, openUserPage, pageProblems, screenshot, type UserPage } from './support/browser.js';
import { composer, DEMO, openChannel, signIn } from './support/caseroom.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Links in real Chromium (chat-spec §2 link card, §4 link preview, GFM text): a local test site on loopback
 * (127.0.0.2, the server's only allow-listed address, named `news.example.com` for it), two users; the composer
 * shows the preview, the card reaches both, and the bare link opens in a new tab.
 */

const PAGE_HTML = `<!doctype html><html><head><title>fallback</title>
<meta property="og:title" content="Housing benefit: how to apply">
<meta property="og:description" content="The steps, the forms and the deadlines, explained.">
<meta property="og:site_name" content="Welfare Office">
<meta property="og:image" content="https://tracker.example.net/pixel.png">
</head><body>The page</body></html>`;

describe('links and link previews in real Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let site: http.Server;
  let sitePort = 0;
  let siteHits = 0;
  const users: UserPage[] = [];

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      siteHits++;
      if (req.url === '/housing') res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE_HTML);
      else if (req.url === '/forms')
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><head><title>Forms and deadlines</title></head></html>');
      else res.writeHead(404).end();
    });
    sitePort = await new Promise<number>((resolve) =>
      site.listen(0, '127.0.0.2', () => resolve((site.address() as net.AddressInfo).port)),
    );
    [server, browser] = await Promise.all([
      startServer({
        env: { HTTP_OUT_ALLOW: '127.0.0.2', HTTP_OUT_RESOLVE: 'news.example.com=127.0.0.2' },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    for (const user of users) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await new Promise((r) => site?.close(r));
  });

  it('shows the preview while writing, the card for both users, and opens the bare link in a new tab', async () => {
    const user = async () => {
      const opened = await openUserPage(browser, server.url);
      users.push(opened);
      return opened;
    };
    const [maria, chloe] = await Promise.all([user(), user()]);
    await Promise.all([signIn(maria.page, DEMO.maria.email), signIn(chloe.page, DEMO.chloe.email)]);
    await openChannel(maria.page, DEMO.chloe.name);
    await openChannel(chloe.page, DEMO.maria.name);

    const url = `http://news.example.com:${sitePort}/housing`;
    const text = `Read ${url} before Monday`;
    await composer(maria.page).fill(text);
    const preview = maria.page.getByRole('list', { name: 'Link previews' });
    await preview.getByText('Housing benefit: how to apply').waitFor({ timeout: 10_000 });
    await screenshot(maria.page, 'chat-links-composer');
    expect(await preview.getByRole('button', { name: `Remove the preview of ${url}` }).isVisible()).toBe(
      true,
    );

    await composer(maria.page).press('Enter');
    for (const { page } of [maria, chloe]) {
      const message = page
        .getByRole('log', { name: 'Messages' })
        .getByRole('listitem')
        .filter({ hasText: 'before Monday' });
      const card = message.getByTestId('link-card');
      await card.waitFor({ timeout: 10_000 });
      expect(await card.innerText()).toContain('Welfare Office');
      expect(await card.innerText()).toContain('The steps, the forms and the deadlines, explained.');
      // The page's image is never loaded by readers (their address would go to the tracker).
      expect(await card.locator('img').count()).toBe(0);
      const link = message.getByRole('link', { name: url, exact: true });
      expect(await link.getAttribute('href')).toBe(url);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    }
    // Only the server fetched the page: once for the composer's preview, the send carried it (no second fetch).
    expect(siteHits).toBe(1);

    // Sent before the composer's preview came: the server adds it (url_enrichment) by message.updated, live.
    await composer(maria.page).fill(`And http://news.example.com:${sitePort}/forms too`);
    await composer(maria.page).press('Enter');
    for (const { page } of [maria, chloe]) {
      await page
        .getByRole('log', { name: 'Messages' })
        .getByRole('listitem')
        .filter({ hasText: 'too' })
        .getByTestId('link-card')
        .filter({ hasText: 'Forms and deadlines' })
        .waitFor({ timeout: 10_000 });
    }

    await screenshot(chloe.page, 'chat-links-card');
    expect(await seriousA11yViolations(chloe.page)).toEqual([]);

    // The bare link opens in a new tab; the chat stays where it was.
    const chatUrl = chloe.page.url();
    const link = chloe.page
      .getByRole('log', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: 'before Monday' })
      .getByRole('link', { name: url, exact: true });
    const [popup] = await Promise.all([chloe.page.context().waitForEvent('page'), link.click()]);
    expect(popup).toBeTruthy();
    expect(chloe.page.url()).toBe(chatUrl);
    await popup.close();

    // Phone width: the card fits the screen.
    await chloe.page.setViewportSize({ width: 390, height: 844 });
    // The phone layout shows the chat alone (the list of chats goes) and lays the messages out again.
    await chloe.page.getByRole('navigation', { name: 'Chats' }).waitFor({ state: 'hidden' });
    // The card is on screen (what is at its centre is the card), within the 390 px width.
    const fits = () =>
      chloe.page.evaluate(() => {
        const cards = document.querySelectorAll('[data-testid="link-card"]');
        const card = cards[cards.length - 1];
        if (!card) return false;
        const r = card.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return r.width > 0 && r.x >= 0 && r.right <= window.innerWidth && hit !== null && card.contains(hit);
      });
    await expect.poll(fits, { timeout: 10_000 }).toBe(true);
    await screenshot(chloe.page, 'chat-links-phone');

    expect(pageProblems(maria)).toEqual([]);
    expect(pageProblems(chloe)).toEqual([]);
  });
});
