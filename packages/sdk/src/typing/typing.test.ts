import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import { TypingExpiry, TypingSender } from './typing.js';

describe('typing', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends typing.start at most every 2 s, per thread, and typing.stop once', () => {
    const send = vi.fn();
    const sender = new TypingSender(send);
    sender.keystroke();
    sender.keystroke();
    vi.advanceTimersByTime(1999);
    sender.keystroke();
    expect(send.mock.calls).toEqual([['typing.start', undefined]]);
    vi.advanceTimersByTime(1);
    sender.keystroke();
    sender.keystroke('parent-1');
    expect(send).toHaveBeenCalledTimes(3);
    sender.stop();
    sender.stop();
    expect(send.mock.calls.at(-1)).toEqual(['typing.stop', undefined]);
    expect(send).toHaveBeenCalledTimes(4);
  });

  it("expires others' typing after 7 s without a new event", () => {
    const expire = vi.fn();
    const expiry = new TypingExpiry(expire);
    expiry.started('bob');
    vi.advanceTimersByTime(6000);
    expiry.started('bob');
    vi.advanceTimersByTime(6999);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledWith('bob');
    expiry.started('cat');
    expiry.stopped('cat');
    vi.advanceTimersByTime(10_000);
    expect(expire).toHaveBeenCalledTimes(1);
  });

  describe('through the channel', () => {
    let clients: ChatClient[] = [];
    afterEach(async () => {
      for (const c of clients) await c.disconnectUser();
      clients = [];
    });

    it('shows the other user typing, then typing.stop is produced after 7 s', async () => {
      const server = new FakeChatServer();
      server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
      const amy = await connectFakeClient(server, { id: 'amy' });
      const bob = await connectFakeClient(server, { id: 'bob', name: 'Bob' });
      clients = [amy, bob];
      const amyChannel = amy.channel('messaging', 'general');
      const bobChannel = bob.channel('messaging', 'general');
      await Promise.all([amyChannel.watch(), bobChannel.watch()]);
      const stops = vi.fn();
      amy.on('typing.stop', stops);

      bobChannel.keystroke();
      await vi.advanceTimersByTimeAsync(0);
      expect(Object.keys(amyChannel.state.getSnapshot().typing)).toEqual(['bob']);
      expect(server.requestsTo(/\/event$/)[0]?.body).toEqual({ event: { type: 'typing.start' } });
      await vi.advanceTimersByTimeAsync(6999);
      expect(Object.keys(amyChannel.state.getSnapshot().typing)).toEqual(['bob']);
      await vi.advanceTimersByTimeAsync(1);
      expect(amyChannel.state.getSnapshot().typing).toEqual({});
      expect(stops).toHaveBeenCalledWith(
        expect.objectContaining({ type: 'typing.stop', user: expect.objectContaining({ id: 'bob' }) }),
      );
    });
  });
});
