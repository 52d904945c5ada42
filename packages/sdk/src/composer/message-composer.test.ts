import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import { loadTransliteration } from './mention-search.js';

describe('message composer (fake timers)', () => {
  let server: FakeChatServer;
  let amy: ChatClient;

  // Loaded on first use in the app; loaded up front here so fake timers don't race a real file read.
  beforeAll(() => loadTransliteration());

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    server = new FakeChatServer();
    server.upsertUser({ id: 'zoe', name: 'Zoë Ørsted' });
    server.upsertUser({ id: 'bob', name: 'Bob Marley' });
    server.createChannel('messaging', 'general', { members: ['amy', 'bob', 'zoe'] }, 'amy');
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

  it('mentions: 300 ms debounce, self excluded, transliterated, fuzzy; kept only while named', async () => {
    const { composer } = await composer_();
    composer.setText('hi @');
    expect(composer.state.getSnapshot().suggestions).toMatchObject({ trigger: '@', loading: true });
    await vi.advanceTimersByTimeAsync(299);
    expect(composer.state.getSnapshot().suggestions?.loading).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    const ids = () =>
      composer.state.getSnapshot().suggestions?.items.map((i) => (i.kind === 'mention' ? i.user.id : i.name));
    expect(ids()).toEqual(['bob', 'zoe']); // not amy herself
    composer.setText('hi @ors');
    await vi.advanceTimersByTimeAsync(300);
    expect(ids()).toEqual(['zoe']); // Ørsted, transliterated
    composer.setText('hi @Marely');
    await vi.advanceTimersByTimeAsync(300);
    expect(ids()).toEqual(['bob']); // fuzzy
    const bob = composer.state.getSnapshot().suggestions?.items[0];
    if (!bob) throw new Error('no suggestion');
    composer.select(bob);
    expect(composer.state.getSnapshot()).toMatchObject({ text: 'hi @Bob Marley ', suggestions: undefined });
    expect(composer.state.getSnapshot().mentionedUsers.map((u) => u.id)).toEqual(['bob']);
    composer.setText('hi @Bob, hello');
    expect(composer.state.getSnapshot().mentionedUsers.map((u) => u.id)).toEqual(['bob']); // @id still there
    composer.setText('hi there');
    expect(composer.state.getSnapshot().mentionedUsers).toEqual([]);
  });

  it('commands come from the channel config after a leading /', async () => {
    const { channel, composer } = await composer_();
    channel.handleEvent({
      type: 'channel.updated',
      cid: 'messaging:general',
      created_at: new Date().toISOString(),
      channel: {
        ...channel.state.getSnapshot().channel!,
        config: {
          ...channel.state.getSnapshot().channel!.config,
          commands: [{ name: 'giphy' }, { name: 'mute' }],
        },
      },
    });
    composer.setText('/g');
    expect(composer.state.getSnapshot().suggestions?.items).toEqual([{ kind: 'command', name: 'giphy' }]);
    composer.setText('say /g');
    expect(composer.state.getSnapshot().suggestions).toBeUndefined();
  });

  it('edit and quote take only messages of their mode; an edit brings back the text written before', async () => {
    const { channel, composer } = await composer_();
    const main = await channel.sendMessage({ text: 'main' });
    const reply = { ...main, id: 'r1', parent_id: main.id };
    expect(composer.startEditing(reply)).toBe(false);
    expect(composer.setQuoted(reply)).toBe(false);
    composer.setText('draft');
    expect(composer.startEditing(main)).toBe(true);
    expect(composer.state.getSnapshot()).toMatchObject({ text: 'main', editing: { id: main.id } });
    composer.setText('main, edited');
    await composer.send();
    expect(channel.state.getSnapshot().messages.find((m) => m.id === main.id)?.text).toBe('main, edited');
    expect(composer.state.getSnapshot()).toMatchObject({ text: 'draft', editing: undefined });
    expect(composer.setQuoted(main)).toBe(true);
    const sent = await composer.send();
    expect(sent).toMatchObject({ text: 'draft', quoted_message_id: main.id });
    expect(composer.state.getSnapshot()).toMatchObject({ text: '', quoted: undefined });
  });

  it('links are refused without send-links; disabled texts without send-message', async () => {
    const { channel, composer } = await composer_();
    const data = channel.state.getSnapshot().channel!;
    const withCaps = (caps: string[]) =>
      channel.handleEvent({
        type: 'capabilities.changed',
        cid: data.cid,
        created_at: '',
        own_capabilities: caps,
      });
    withCaps(data.own_capabilities.filter((c) => c !== 'send-links'));
    composer.setText('see example.com/x');
    expect(await composer.send()).toBeUndefined();
    expect(composer.state.getSnapshot().blockReason).toBe('links-not-allowed');
    expect(amy.notifications.getSnapshot().map((n) => n.text)).toContain(
      'Sending links is not allowed in this conversation',
    );
    withCaps(['read-events']);
    expect(composer.state.getSnapshot().disabledText).toBe("You can't send messages in this channel");
  });

  it('cooldown counts down every second from the channel cooldown and the last own message', async () => {
    const { composer } = await slowMode(3);
    composer.setText('one');
    await composer.send();
    expect(composer.state.getSnapshot().cooldownRemaining).toBe(3);
    composer.setText('two');
    expect(composer.state.getSnapshot().blockReason).toBe('cooldown');
    await vi.advanceTimersByTimeAsync(1000);
    expect(composer.state.getSnapshot().cooldownRemaining).toBe(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(composer.state.getSnapshot()).toMatchObject({ cooldownRemaining: 0, blockReason: undefined });
  });

  it('counts down from the wait the server names when it refuses a send for slow mode (its count includes thread replies)', async () => {
    const { composer } = await slowMode(30);
    // Nothing of amy's in the main list: the composer itself sees no reason to wait.
    expect(composer.state.getSnapshot().cooldownRemaining).toBe(0);
    server.failNext(/^POST \/channels\/messaging\/general\/message$/, {
      status: 429,
      code: 60,
      message: 'slow mode: wait 12 seconds',
    });
    composer.setText('too soon');
    const sent = await composer.send();
    expect(sent?.status).toBe('failed');
    expect(composer.state.getSnapshot().cooldownRemaining).toBe(12);
    await vi.advanceTimersByTimeAsync(1000);
    expect(composer.state.getSnapshot().cooldownRemaining).toBe(11);
  });

  async function composer_() {
    return composer();
  }

  /** A watched channel in slow mode (`seconds`) for amy, who does not skip it. */
  async function slowMode(seconds: number) {
    const { channel, composer } = await composer_();
    const data = channel.state.getSnapshot().channel!;
    channel.handleEvent({
      type: 'channel.updated',
      cid: data.cid,
      created_at: '',
      channel: { ...data, cooldown: seconds },
    });
    channel.handleEvent({
      type: 'capabilities.changed',
      cid: data.cid,
      created_at: '',
      own_capabilities: [...data.own_capabilities.filter((c) => c !== 'skip-slow-mode'), 'slow-mode'],
    });
    return { channel, composer };
  }
});
