import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchController, type SearchSource } from './search-controller.js';

describe('search controller (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const numbers = (type: string, total: number): SearchSource<string> & { calls: string[] } => {
    const calls: string[] = [];
    return {
      type,
      calls,
      fetch(query, { offset, limit }) {
        calls.push(`${query}@${offset}`);
        const all = Array.from({ length: total }, (_, i) => `${query}-${i}`);
        return Promise.resolve(all.slice(offset, offset + limit));
      },
    };
  };

  it('debounces 300 ms, pages with hasNext / isLoading, skips inactive sources', async () => {
    const users = numbers('users', 15);
    const channels = numbers('channels', 3);
    const search = new SearchController([users, channels]);
    search.deactivate('channels');
    search.search('a');
    search.search('ab');
    expect(search.state.getSnapshot().sources.users?.isLoading).toBe(true);
    await vi.advanceTimersByTimeAsync(299);
    expect(users.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(users.calls).toEqual(['ab@0']);
    expect(channels.calls).toEqual([]);
    expect(search.state.getSnapshot().sources.users).toMatchObject({ hasNext: true, isLoading: false });
    await search.loadMore('users');
    expect(search.state.getSnapshot().sources.users).toMatchObject({ hasNext: false });
    expect(search.state.getSnapshot().sources.users?.items).toHaveLength(15);
    search.activate('channels');
    await vi.advanceTimersByTimeAsync(0);
    expect(search.state.getSnapshot().sources.channels).toMatchObject({ isActive: true, hasNext: false });
    expect(search.state.getSnapshot().sources.channels?.items).toHaveLength(3);
    search.clear();
    expect(search.state.getSnapshot().sources.users?.items).toEqual([]);
  });
});
