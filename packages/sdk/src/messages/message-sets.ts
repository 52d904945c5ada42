import { CHAT_LIMITS } from '@caseroom/protocol';
import { compareMessages, type LocalMessage } from './local-message.js';

/**
 * A contiguous run of a channel's messages (chat-spec §4 "Message sets"). A channel holds several
 * when the user jumps into history: the one shown is `isCurrent`, the one that ends at the newest
 * message is `isLatest`; `hasPrev`/`hasNext` say whether the server has more on either side.
 */
export interface MessageSet {
  readonly messages: readonly LocalMessage[];
  readonly isLatest: boolean;
  readonly isCurrent: boolean;
  readonly hasPrev: boolean;
  readonly hasNext: boolean;
}

export type MessageSets = readonly MessageSet[];

export const PAGE_SIZE: number = CHAT_LIMITS.messagePageSize;
export const WINDOW_MAX: number = CHAT_LIMITS.messageWindowMax;

export function currentSet(sets: MessageSets): MessageSet | undefined {
  return sets.find((s) => s.isCurrent);
}

export function latestSet(sets: MessageSets): MessageSet | undefined {
  return sets.find((s) => s.isLatest);
}

/** Sets after a fresh load of the newest page: it becomes the latest and current set. */
export function withLatestPage(
  sets: MessageSets,
  page: readonly LocalMessage[],
  limit = PAGE_SIZE,
): MessageSets {
  const others = sets
    .filter((s) => !s.isLatest && !overlaps(s, page))
    .map((s) => ({ ...s, isCurrent: false }));
  const latest: MessageSet = {
    messages: sortUnique(page),
    isLatest: true,
    isCurrent: true,
    hasPrev: page.length >= limit,
    hasNext: false,
  };
  return [...others, latest];
}

/**
 * Adds or replaces one message (an event, a local echo). New messages go to the latest set (created
 * when missing); a message already held anywhere is replaced in place. The current latest set keeps
 * a window of at most 100 messages, dropping the oldest.
 */
export function upsertMessage(sets: MessageSets, message: LocalMessage): MessageSets {
  const holder = sets.findIndex((s) => s.messages.some((m) => m.id === message.id));
  if (holder >= 0) {
    return sets.map((s, i) => {
      if (i !== holder) return s;
      const previous = s.messages.find((m) => m.id === message.id);
      const messages = s.messages.map((m) => (m.id === message.id ? message : m));
      return {
        ...s,
        messages:
          previous?.created_at === message.created_at && previous.seq === message.seq
            ? messages
            : sortUnique(messages),
      };
    });
  }
  const latest = latestSet(sets);
  if (!latest) {
    const fresh: MessageSet = {
      messages: [message],
      isLatest: true,
      isCurrent: sets.length === 0,
      hasPrev: sets.length > 0,
      hasNext: false,
    };
    return [...sets, fresh];
  }
  return sets.map((s) =>
    s === latest ? trimOldest({ ...s, messages: insertSorted(s.messages, message) }) : s,
  );
}

/** Applies `fn` to every held message (updates from events); `fn` returns the same object for no change. */
export function mapMessages(
  sets: MessageSets,
  fn: (m: LocalMessage) => LocalMessage | undefined,
): MessageSets {
  let changed = false;
  const next = sets.map((s) => {
    const messages: LocalMessage[] = [];
    let setChanged = false;
    for (const m of s.messages) {
      const mapped = fn(m);
      if (mapped !== m) setChanged = true;
      if (mapped) messages.push(mapped);
    }
    if (!setChanged) return s;
    changed = true;
    return { ...s, messages };
  });
  return changed ? next : sets;
}

/** Prepends an older page to the current set; the window keeps at most 100, dropping the newest. */
export function withOlderPage(
  sets: MessageSets,
  page: readonly LocalMessage[],
  limit = PAGE_SIZE,
): MessageSets {
  return sets.map((s) => {
    if (!s.isCurrent) return s;
    const merged: MessageSet = {
      ...s,
      messages: sortUnique([...page, ...s.messages]),
      hasPrev: page.length >= limit,
    };
    return trimNewest(merged);
  });
}

/** Appends a newer page to the current set; when the server has no more it becomes the latest set. */
export function withNewerPage(
  sets: MessageSets,
  page: readonly LocalMessage[],
  limit = PAGE_SIZE,
): MessageSets {
  const current = currentSet(sets);
  if (!current) return sets;
  const hasNext = page.length >= limit;
  let messages = sortUnique([...current.messages, ...page]);
  let rest = sets.filter((s) => s !== current);
  if (!hasNext) {
    // This set reached the newest message: it absorbs the old latest set.
    const latest = latestSet(rest);
    if (latest) messages = sortUnique([...messages, ...latest.messages]);
    rest = rest.filter((s) => s !== latest);
  }
  const next: MessageSet = { ...current, messages, hasNext, isLatest: !hasNext };
  return [...rest, trimOldest(next)];
}

/**
 * Adds the page around a jumped-to message as the current set (chat-spec §7 `id_around`), merged with
 * any set it overlaps. `hasPrev`/`hasNext` come from how many messages the server put on each side.
 */
export function withPageAround(
  sets: MessageSets,
  page: readonly LocalMessage[],
  targetId: string,
  limit = PAGE_SIZE,
): MessageSets {
  const sorted = sortUnique(page);
  const index = sorted.findIndex((m) => m.id === targetId);
  const half = Math.floor(limit / 2);
  let set: MessageSet = {
    messages: sorted,
    isCurrent: true,
    isLatest: false,
    hasPrev: index < 0 ? true : index >= half,
    hasNext: index < 0 ? true : sorted.length - index - 1 >= limit - half - 1,
  };
  const rest: MessageSet[] = [];
  for (const s of sets) {
    if (overlaps(s, sorted)) {
      set = {
        messages: sortUnique([...s.messages, ...set.messages]),
        isCurrent: true,
        isLatest: s.isLatest || set.isLatest,
        hasPrev:
          s.messages[0] && set.messages[0]?.id === s.messages[0].id ? s.hasPrev : set.hasPrev && s.hasPrev,
        hasNext: s.isLatest ? false : set.hasNext && s.hasNext,
      };
    } else rest.push({ ...s, isCurrent: false });
  }
  if (!set.hasNext && !set.isLatest && !rest.some((s) => s.isLatest)) set = { ...set, isLatest: true };
  return [...rest, set];
}

/** Makes the set holding `messageId` current; answers undefined when no set holds it (query needed). */
export function selectSetWith(sets: MessageSets, messageId: string): MessageSets | undefined {
  const holder = sets.find((s) => s.messages.some((m) => m.id === messageId));
  if (!holder) return undefined;
  return sets.map((s) => (s.isCurrent === (s === holder) ? s : { ...s, isCurrent: s === holder }));
}

/** Makes the latest set current again, trimmed to its newest window; undefined when there is none. */
export function selectLatest(sets: MessageSets): MessageSets | undefined {
  const latest = latestSet(sets);
  if (!latest || (latest.messages.length < PAGE_SIZE && latest.hasPrev)) return undefined;
  return sets.map((s) => (s === latest ? trimOldest({ ...s, isCurrent: true }) : { ...s, isCurrent: false }));
}

/** chat-spec §4: on channel select, cached latest messages are trimmed to twice the page size. */
export function trimLatestForSelect(sets: MessageSets): MessageSets {
  const latest = latestSet(sets);
  if (!latest || latest.messages.length <= 2 * PAGE_SIZE) return sets;
  return [
    {
      ...latest,
      messages: latest.messages.slice(-2 * PAGE_SIZE),
      hasPrev: true,
      isCurrent: true,
    },
  ];
}

function trimOldest(set: MessageSet): MessageSet {
  if (!set.isCurrent || set.messages.length <= WINDOW_MAX) return set;
  return { ...set, messages: set.messages.slice(-WINDOW_MAX), hasPrev: true };
}

function trimNewest(set: MessageSet): MessageSet {
  if (set.messages.length <= WINDOW_MAX) return set;
  return { ...set, messages: set.messages.slice(0, WINDOW_MAX), hasNext: true, isLatest: false };
}

function overlaps(set: MessageSet, page: readonly LocalMessage[]): boolean {
  const ids = new Set(page.map((m) => m.id));
  return set.messages.some((m) => ids.has(m.id));
}

function sortUnique(messages: readonly LocalMessage[]): LocalMessage[] {
  const byId = new Map<string, LocalMessage>();
  for (const m of messages) byId.set(m.id, m);
  return [...byId.values()].sort(compareMessages);
}

function insertSorted(messages: readonly LocalMessage[], message: LocalMessage): LocalMessage[] {
  const last = messages[messages.length - 1];
  if (!last || compareMessages(last, message) <= 0) return [...messages, message];
  return sortUnique([...messages, message]);
}
