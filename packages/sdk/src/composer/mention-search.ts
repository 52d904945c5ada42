import type { ChatUser } from '@caseroom/protocol';
import { distance } from 'fastest-levenshtein';

/** chat-spec §5 / §9: fuzzy matching allows an edit distance of at most 3. */
export const MAX_EDIT_DISTANCE = 3;
/** Suggestions shown at once (chat-spec §9: suggestions and query sources 10). */
export const SUGGESTION_LIMIT = 10;
/** Members are listed whole when the channel has fewer than 100 (chat-spec §9). */
export const MEMBERS_FULLY_LOADED_BELOW = 100;

let transliterate: ((text: string) => string) | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the transliteration table (any-ascii) on first use. It is half a megabyte of source, so it stays out
 * of the app's first load and arrives while the user types a mention (searches wait 300 ms anyway).
 */
export function loadTransliteration(): Promise<void> {
  loading ??= import('any-ascii').then((m) => {
    transliterate = m.default;
  });
  return loading;
}

/**
 * Case-insensitive and transliterated (`Zoë` and `zoe`, `Ørsted` and `orsted` match). Until
 * {@link loadTransliteration} resolved, only combining marks are stripped (`Zoë` matches, `Ø` not yet).
 */
export function normalizeForSearch(text: string): string {
  const ascii = transliterate ? transliterate(text) : text.normalize('NFKD').replace(/\p{M}/gu, '');
  return ascii.toLowerCase().trim();
}

/**
 * How well `user` matches the typed `query` (chat-spec §5 mentions): 0 for a prefix of the id, the
 * name or a word of the name; 1 for a substring; 2 + distance for a fuzzy match of a word prefix
 * (edit distance at most 3, and one per three typed characters so short queries stay precise);
 * undefined for no match. Single-character terms are not matched fuzzily.
 */
export function mentionScore(user: Pick<ChatUser, 'id' | 'name'>, query: string): number | undefined {
  const q = normalizeForSearch(query);
  if (q === '') return 0;
  const id = normalizeForSearch(user.id);
  const name = normalizeForSearch(user.name ?? '');
  const words = name.split(/\s+/).filter(Boolean);
  if (id.startsWith(q) || name.startsWith(q) || words.some((w) => w.startsWith(q))) return 0;
  if (id.includes(q) || name.includes(q)) return 1;
  if (q.length < 2) return undefined;
  const allowed = Math.min(MAX_EDIT_DISTANCE, Math.floor(q.length / 3));
  let best: number | undefined;
  for (const candidate of [id, ...words]) {
    const d = distance(candidate.slice(0, q.length), q);
    if (d <= allowed && (best === undefined || d < best)) best = d;
  }
  return best === undefined ? undefined : 2 + best;
}

/**
 * The users matching `query`, best first then alphabetically by name (then id); the current user is
 * never suggested (chat-spec §5).
 */
export function searchUsers<U extends Pick<ChatUser, 'id' | 'name'>>(
  users: readonly U[],
  query: string,
  selfId: string | undefined,
  limit: number = SUGGESTION_LIMIT,
): U[] {
  const scored: { user: U; score: number }[] = [];
  for (const user of users) {
    if (user.id === selfId) continue;
    const score = mentionScore(user, query);
    if (score !== undefined) scored.push({ user, score });
  }
  const label = (u: U) => normalizeForSearch(u.name ?? u.id);
  scored.sort(
    (a, b) =>
      a.score - b.score || label(a.user).localeCompare(label(b.user)) || a.user.id.localeCompare(b.user.id),
  );
  return scored.slice(0, limit).map((s) => s.user);
}

/** The `@query` or `/query` being typed at `cursor`, if any (mentions allow no spaces). */
export function activeTrigger(
  text: string,
  cursor: number = text.length,
): { trigger: '@' | '/'; query: string; start: number } | undefined {
  const before = text.slice(0, cursor);
  const command = /^\/(\w*)$/.exec(before);
  if (command) return { trigger: '/', query: command[1] ?? '', start: 0 };
  const mention = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (!mention) return undefined;
  const query = mention[1] ?? '';
  return { trigger: '@', query, start: cursor - query.length - 1 };
}
