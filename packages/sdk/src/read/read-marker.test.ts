import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient } from '../client/chat-client.js';
import { connectFakeClient, FakeChatServer } from '../testing/index.js';
import { ReadMarker } from './read-marker.js';

describe('read marking', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is throttled to one call per 1050 ms, leading and trailing', () => {
    const send = vi.fn();
    const marker = new ReadMarker(send);
    marker.request();
    marker.request();
    marker.request();
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1049);
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('is paused after mark-unread until resumed', () => {
    const send = vi.fn();
    const marker = new ReadMarker(send);
    marker.pause();
    expect(marker.request()).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(send).not.toHaveBeenCalled();
    marker.resume();
    expect(marker.request()).toBe(true);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('channel.markRead clears the unread count and posts /read once per window', async () => {
    const server = new FakeChatServer();
    server.createChannel('messaging', 'general', { members: ['amy', 'bob'] }, 'amy');
    const sent = server.sendMessage('messaging:general', 'bob', { text: 'unread' });
    const amy: ChatClient = await connectFakeClient(server, { id: 'amy' });
    const channel = amy.channel('messaging', 'general');
    await channel.watch();
    expect(channel.state.getSnapshot().unreadCount).toBe(1);
    channel.markRead();
    channel.markRead();
    expect(channel.state.getSnapshot().unreadCount).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(server.requestsTo(/\/read$/)).toHaveLength(2);
    await channel.markUnread(sent.id);
    channel.markRead();
    await vi.advanceTimersByTimeAsync(2000);
    expect(server.requestsTo(/\/read$/)).toHaveLength(2);
    await amy.disconnectUser();
  });
});
