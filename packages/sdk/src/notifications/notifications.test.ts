import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTICE_TEXTS, Notifications } from './notifications.js';

describe('Notifications', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('removes temporary notices after 5000 ms and keeps permanent ones', () => {
    const notes = new Notifications();
    notes.add({ text: NOTICE_TEXTS.messageNotFound });
    notes.add({ text: NOTICE_TEXTS.channelsLoadError, permanent: true });
    notes.add({ text: 'short', durationMs: 1000, type: 'success' });
    vi.advanceTimersByTime(1000);
    expect(notes.getSnapshot().map((n) => n.text)).toEqual([
      NOTICE_TEXTS.messageNotFound,
      NOTICE_TEXTS.channelsLoadError,
    ]);
    vi.advanceTimersByTime(4000);
    expect(notes.getSnapshot().map((n) => n.text)).toEqual([NOTICE_TEXTS.channelsLoadError]);
    vi.advanceTimersByTime(60_000);
    expect(notes.getSnapshot()).toHaveLength(1);
  });

  it('replaces a notice with the same id and removes on demand', () => {
    const notes = new Notifications();
    const listener = vi.fn();
    notes.subscribe(listener);
    notes.add({ id: 'conn', text: NOTICE_TEXTS.reconnecting, permanent: true });
    notes.add({ id: 'conn', text: NOTICE_TEXTS.reconnecting, permanent: true });
    expect(notes.getSnapshot()).toHaveLength(1);
    notes.remove('conn');
    expect(notes.getSnapshot()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('carries the spec texts', () => {
    expect(NOTICE_TEXTS.connectError).toBe('Error connecting to chat, refresh the page to try again.');
    expect(NOTICE_TEXTS.reconnecting).toBe('Connection failure, reconnecting now...');
    expect(NOTICE_TEXTS.linksNotAllowed).toBe('Sending links is not allowed in this conversation');
  });
});
