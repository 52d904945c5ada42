import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import { previewableLinks } from './link-preview-manager.js';

const PAGE = 'https://news.example.com/housing';
const OTHER = 'https://forms.example.org/apply';

describe('previewableLinks (chat-spec §5: a hostname of valid domain form)', () => {
  it('finds links with and without a scheme, once each, and skips addresses and bare names', () => {
    expect(
      previewableLinks(
        `see ${PAGE} and forms.example.org/apply, ${PAGE} again, http://127.0.0.1/x http://localhost:3000/ mailto:a@b.no`,
      ),
    ).toEqual([PAGE, 'http://forms.example.org/apply']);
  });
});

describe('composer link previews (fake timers)', () => {
  let server: FakeChatServer;
  let amy: ChatClient;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    server = new FakeChatServer();
    server.upsertUser({ id: 'bob', name: 'Bob' });
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy').urlEnrichment = true;
    server.linkPreviews.set(PAGE, { title: 'Housing benefit', text: 'How to apply', author_name: 'News' });
    amy = await connectFakeClient(server, { id: 'amy', name: 'Amy' });
  });
  afterEach(async () => {
    await amy.disconnectUser();
    vi.useRealTimers();
  });

  async function composer() {
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    return { channel, composer: channel.composer };
  }
  const ogRequests = () => server.requests.filter((r) => r.path === '/og');
  const statuses = (c: Awaited<ReturnType<typeof composer>>['composer']) =>
    c.linkPreviews.state.getSnapshot().previews.map((p) => [p.og_scrape_url, p.status]);

  it('waits 1,500 ms after typing, then goes pending -> loading -> loaded', async () => {
    const { composer: c } = await composer();
    const seen: string[] = [];
    c.linkPreviews.state.subscribe(() => {
      const status = c.linkPreviews.state.getSnapshot().previews[0]?.status;
      if (status && seen.at(-1) !== status) seen.push(status);
    });
    c.setText(`read ${PAGE}`);
    expect(statuses(c)).toEqual([[PAGE, 'pending']]);
    await vi.advanceTimersByTimeAsync(1000);
    c.setText(`read ${PAGE} now`); // typing again restarts the wait
    await vi.advanceTimersByTimeAsync(1000);
    expect(ogRequests()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(499);
    expect(ogRequests()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(statuses(c)).toEqual([[PAGE, 'loaded']]);
    expect(seen).toEqual(['pending', 'loading', 'loaded']);
    expect(c.linkPreviews.state.getSnapshot().previews[0]?.preview).toMatchObject({
      og_scrape_url: PAGE,
      title: 'Housing benefit',
    });
    expect(ogRequests()).toHaveLength(1);
    expect(ogRequests()[0]?.query.url).toBe(PAGE);
  });

  it('marks a link without a preview failed', async () => {
    const { composer: c } = await composer();
    c.setText(`${OTHER}`);
    await vi.advanceTimersByTimeAsync(1500);
    expect(statuses(c)).toEqual([[OTHER, 'failed']]);
  });

  it('sends loaded previews as attachments, and nothing to skip', async () => {
    const { channel, composer: c } = await composer();
    c.setText(`read ${PAGE}`);
    await vi.advanceTimersByTimeAsync(1500);
    await c.send();
    const sent = server.requests.find((r) => r.path === '/channels/messaging/general/message');
    expect(sent?.body).toMatchObject({
      message: { text: `read ${PAGE}`, attachments: [{ og_scrape_url: PAGE, title: 'Housing benefit' }] },
    });
    expect(sent?.body).not.toHaveProperty('skip_enrich_url');
    expect(channel.state.getSnapshot().messages.at(-1)?.attachments).toHaveLength(1);
    expect(statuses(c)).toEqual([]);
  });

  it('a dismissed preview is not fetched again while its link stays, and the send skips enrichment', async () => {
    const { composer: c } = await composer();
    c.setText(`read ${PAGE}`);
    await vi.advanceTimersByTimeAsync(1500);
    c.linkPreviews.dismiss(PAGE);
    c.setText(`read ${PAGE} please`);
    await vi.advanceTimersByTimeAsync(3000);
    expect(statuses(c)).toEqual([[PAGE, 'dismissed']]);
    expect(ogRequests()).toHaveLength(1);
    await c.send();
    const sent = server.requests.find((r) => r.path === '/channels/messaging/general/message');
    expect(sent?.body).toMatchObject({ skip_enrich_url: true });
    expect((sent?.body as { message: Record<string, unknown> }).message).not.toHaveProperty('attachments');
  });

  it('drops a preview whose link was deleted, even when its answer comes later', async () => {
    const { composer: c } = await composer();
    c.setText(`read ${PAGE}`);
    await vi.advanceTimersByTimeAsync(1500);
    c.setText('read');
    expect(statuses(c)).toEqual([]);
    c.setText(`read ${PAGE}`);
    expect(statuses(c)).toEqual([[PAGE, 'pending']]);
  });

  it('makes no previews without url_enrichment or without send-links (chat-spec §6)', async () => {
    server.channels.get('messaging:general')!.urlEnrichment = false;
    const { composer: c } = await composer();
    c.setText(`read ${PAGE}`);
    await vi.advanceTimersByTimeAsync(2000);
    expect(statuses(c)).toEqual([]);
    expect(ogRequests()).toHaveLength(0);

    server.createChannel('messaging', 'nolinks', { members: ['amy'] }, 'amy').urlEnrichment = true;
    server.channels.get('messaging:nolinks')!.withoutCapabilities = ['send-links'];
    const other = amy.channel('messaging', 'nolinks');
    await other.watch();
    other.composer.setText(`read ${PAGE}`);
    await vi.advanceTimersByTimeAsync(2000);
    expect(other.composer.linkPreviews.state.getSnapshot().previews).toEqual([]);
    expect(ogRequests()).toHaveLength(0);
  });

  it('client.enrichURL answers the preview of a page', async () => {
    await expect(amy.enrichURL(PAGE)).resolves.toMatchObject({
      og_scrape_url: PAGE,
      title: 'Housing benefit',
    });
    await expect(amy.enrichURL('http://127.0.0.1/')).rejects.toMatchObject({ code: 4 });
  });
});
