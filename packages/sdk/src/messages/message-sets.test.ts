import { describe, expect, it } from 'vitest';
import type { LocalMessage } from './local-message.js';
import {
  currentSet,
  latestSet,
  selectLatest,
  selectSetWith,
  trimLatestForSelect,
  upsertMessage,
  withLatestPage,
  withNewerPage,
  withOlderPage,
  withPageAround,
  type MessageSets,
} from './message-sets.js';

const msg = (n: number): LocalMessage =>
  ({
    id: `m${n}`,
    cid: 'messaging:x',
    text: `${n}`,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  }) as LocalMessage;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const ids = (sets: MessageSets) => currentSet(sets)?.messages.map((m) => Number(m.id.slice(1)));

describe('message sets', () => {
  it('a full latest page has hasPrev; a short one does not', () => {
    const full = withLatestPage([], range(76, 100));
    expect(currentSet(full)).toMatchObject({
      isLatest: true,
      isCurrent: true,
      hasPrev: true,
      hasNext: false,
    });
    expect(currentSet(withLatestPage([], range(1, 3)))?.hasPrev).toBe(false);
  });

  it('new messages append to the latest set and deduplicate by id', () => {
    let sets = withLatestPage([], range(1, 3));
    sets = upsertMessage(sets, msg(4));
    sets = upsertMessage(sets, { ...msg(4), text: 'edited' });
    expect(ids(sets)).toEqual([1, 2, 3, 4]);
    expect(currentSet(sets)?.messages.at(-1)?.text).toBe('edited');
  });

  it('keeps a window of at most 100: older pages drop the newest, new messages drop the oldest', () => {
    let sets = withLatestPage([], range(76, 100));
    for (let from = 51; from >= 1; from -= 25) sets = withOlderPage(sets, range(from, from + 24));
    expect(ids(sets)).toHaveLength(100);
    expect(currentSet(sets)).toMatchObject({ hasPrev: true, hasNext: false, isLatest: true });
    sets = withOlderPage(sets, range(-24, 0));
    expect(ids(sets)?.[0]).toBe(-24);
    expect(ids(sets)?.at(-1)).toBe(75);
    expect(currentSet(sets)).toMatchObject({ hasNext: true, isLatest: false });

    let live = withLatestPage([], range(1, 100));
    live = upsertMessage(live, msg(101));
    expect(ids(live)?.[0]).toBe(2);
    expect(currentSet(live)?.hasPrev).toBe(true);
  });

  it('jumps to a message around it in a new current set, and back to the latest', () => {
    let sets = withLatestPage([], range(976, 1000));
    sets = withPageAround(sets, range(488, 512), 'm500');
    expect(currentSet(sets)).toMatchObject({ isLatest: false, hasPrev: true, hasNext: true });
    expect(latestSet(sets)?.messages).toHaveLength(25);
    // New messages keep going to the latest set, not the one on screen.
    sets = upsertMessage(sets, msg(1001));
    expect(ids(sets)).toEqual(range(488, 512).map((m) => Number(m.id.slice(1))));
    const back = selectLatest(sets);
    expect(back && ids(back)?.at(-1)).toBe(1001);
    expect(selectSetWith(sets, 'm990') && ids(selectSetWith(sets, 'm990') as MessageSets)?.[0]).toBe(976);
    expect(selectSetWith(sets, 'm1')).toBeUndefined();
  });

  it('paging forward to the newest merges into the latest set', () => {
    let sets = withLatestPage([], range(76, 100));
    sets = withPageAround(sets, range(38, 62), 'm50');
    sets = withNewerPage(sets, range(63, 87));
    expect(currentSet(sets)?.hasNext).toBe(true);
    sets = withNewerPage(sets, range(88, 100).slice(0, 10));
    expect(sets).toHaveLength(1);
    expect(currentSet(sets)).toMatchObject({ isLatest: true, hasNext: false });
    expect(ids(sets)?.at(-1)).toBe(100);
  });

  it('a jump that overlaps the latest set merges with it', () => {
    let sets = withLatestPage([], range(76, 100));
    sets = withPageAround(sets, range(88, 100), 'm95');
    expect(sets).toHaveLength(1);
    expect(currentSet(sets)).toMatchObject({ isLatest: true, hasNext: false });
  });

  it('trims cached latest messages to twice the page size on channel select', () => {
    const sets = trimLatestForSelect(withLatestPage([], range(1, 80)));
    expect(ids(sets)).toHaveLength(50);
    expect(currentSet(sets)).toMatchObject({ hasPrev: true, isLatest: true });
  });
});
