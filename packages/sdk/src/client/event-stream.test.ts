import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from './chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';

const CID = 'messaging:general';

describe('event stream: per-channel seq, gaps filled through /sync without a reconnect', () => {
  let server: FakeChatServer;
  let amy: ChatClient;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
    amy = await connectFakeClient(server, { id: 'amy' });
  });

  afterEach(async () => {
    await amy.disconnectUser();
    vi.useRealTimers();
  });

  const texts = () =>
    amy
      .channel('messaging', 'general')
      .state.getSnapshot()
      .messages.map((m) => m.text);

  it('notices a missing seq on the live stream and fills it in order, each message once', async () => {
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    server.sendMessage(CID, 'bob', { id: 'one', text: 'one' });
    await vi.advanceTimersByTimeAsync(0);
    const before = amy.stream.lastSeq(CID);
    server.skipDeliveries = 1;
    server.sendMessage(CID, 'bob', { id: 'two', text: 'two' });
    await vi.advanceTimersByTimeAsync(0);
    expect(texts()).toEqual(['one']);
    server.sendMessage(CID, 'bob', { id: 'three', text: 'three' });
    await vi.advanceTimersByTimeAsync(0);
    await amy.stream.settled();

    expect(texts()).toEqual(['one', 'two', 'three']);
    expect(amy.stream.lastSeq(CID)).toBe(Number(before) + 2);
    const sync = server.requestsTo(/POST \/sync$/);
    expect(sync).toHaveLength(1);
    expect(sync[0]?.body).toEqual({ channel_cids: [CID], cursor: { channels: { [CID]: before } } });
    // No reconnect: the socket stayed up the whole time.
    expect(amy.connection.getSnapshot().status).toBe('connected');
    expect(server.requestsTo(/general\/query$/)).toHaveLength(1);
  });

  it('holds events that arrive while a fill is retried, then applies everything in seq order', async () => {
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    server.sendMessage(CID, 'bob', { id: 'a', text: 'a' });
    await vi.advanceTimersByTimeAsync(0);
    server.failNext(/POST \/sync$/, { status: 500, code: -1, message: 'down for a moment' });
    server.skipDeliveries = 1;
    server.sendMessage(CID, 'bob', { id: 'b', text: 'b' });
    server.sendMessage(CID, 'bob', { id: 'c', text: 'c' });
    await vi.advanceTimersByTimeAsync(0);
    expect(amy.stream.isFilling).toBe(true);
    // Arrives during the fill: held behind the gap, not shown before b.
    server.sendMessage(CID, 'bob', { id: 'd', text: 'd' });
    await vi.advanceTimersByTimeAsync(0);
    expect(texts()).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1000);
    await amy.stream.settled();
    expect(texts()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('never skips past a gap while /sync keeps failing: the held events wait, then come in order', async () => {
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    server.sendMessage(CID, 'bob', { id: 'a', text: 'a' });
    await vi.advanceTimersByTimeAsync(0);
    server.failNext(/POST \/sync$/, { status: 500, code: -1, message: 'overloaded' }, 6);
    server.skipDeliveries = 1;
    server.sendMessage(CID, 'bob', { id: 'b', text: 'b' });
    server.sendMessage(CID, 'bob', { id: 'c', text: 'c' });
    await vi.advanceTimersByTimeAsync(0);
    // Six failures, 1 + 2 + 4 + 8 + 15 + 15 s apart: c is never shown without b, the cursor stays before b.
    for (const ms of [1000, 2000, 4000, 8000, 15_000]) {
      await vi.advanceTimersByTimeAsync(ms);
      expect(texts()).toEqual(['a']);
      expect(amy.stream.isFilling).toBe(true);
    }
    await vi.advanceTimersByTimeAsync(15_000);
    await amy.stream.settled();
    expect(texts()).toEqual(['a', 'b', 'c']);
    expect(server.requestsTo(/POST \/sync$/)).toHaveLength(7);
  });

  it('drops a second copy of an event it already applied', async () => {
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    const seen: number[] = [];
    amy.on('message.new', (e) => seen.push(Number(e.seq)));
    server.sendMessage(CID, 'bob', { id: 'x', text: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    const event = { ...server.lastEvent(CID) };
    amy.stream.receive(event);
    expect(seen).toHaveLength(1);
    expect(texts()).toEqual(['x']);
  });

  it('shows messages in seq order, a local echo at the end until the server gives it its seq', async () => {
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    server.failNext(/general\/message$/, { status: 500, code: -1, message: 'slow' });
    const sending = channel.sendMessage({ text: 'mine' }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    server.sendMessage(CID, 'bob', { id: 'later', text: 'from bob' });
    await vi.advanceTimersByTimeAsync(0);
    await sending;
    // The failed echo has no seq: it stays after every message the server ordered.
    expect(texts()).toEqual(['from bob', 'mine']);
  });
});
