import type { Queryable } from '../../platform/db.js';
import { decodeCursor, encodeCursor, keysetCondition, type SortKey } from './search-cursor.js';

/** One kept version of a message (table `chat_message_history`). */
export interface MessageHistoryRow {
  seq: string;
  message_id: string;
  text: string;
  attachments: unknown[];
  message_updated_by_id: string | null;
  message_updated_at: Date;
  /** The edit (or removal) that replaced this version: who and when. */
  replaced_by_id: string | null;
  replaced_at: Date;
  /** The version a moderator's removal replaced. */
  removed: boolean;
}

/**
 * Locks a message for an edit, so concurrent edits queue and each one reads, and keeps, the version it replaces.
 * Call inside the edit's transaction before reading the message.
 */
export async function lockMessageForEdit(q: Queryable, messageId: string): Promise<void> {
  await q.query('SELECT 1 FROM chat_messages WHERE id = $1 FOR UPDATE', [messageId]);
}

/**
 * Keeps the version an edit (or, `removed`, a moderator's removal) replaced. The version was made by the last edit
 * kept before it (or, for the first edit, by the author when sending). Same transaction as the edit.
 */
export async function keepPreviousVersion(
  q: Queryable,
  previous: { id: string; text: string; attachments: unknown; user_id: string | null; created_at: Date },
  editorId: string | null,
  removed = false,
): Promise<void> {
  await q.query(
    `INSERT INTO chat_message_history
       (message_id, text, attachments, message_updated_by_id, message_updated_at, replaced_by_id, removed)
     SELECT $1, $2, $3::jsonb,
            CASE WHEN last.seq IS NULL THEN $4 ELSE last.replaced_by_id END,
            coalesce(last.replaced_at, $5::timestamptz), $6, $7
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (SELECT seq, replaced_by_id, replaced_at FROM chat_message_history
                           WHERE message_id = $1 ORDER BY seq DESC LIMIT 1) last ON true`,
    [
      previous.id,
      previous.text,
      JSON.stringify(previous.attachments ?? []),
      previous.user_id,
      previous.created_at,
      editorId,
      removed,
    ],
  );
}

export interface HistoryPage {
  rows: MessageHistoryRow[];
  next?: string;
  prev?: string;
}

/** The sort keys of a history page: the version's time, then the order it was kept in. */
function historyKeys(desc: boolean): SortKey[] {
  return [
    { sql: 'h.message_updated_at', cast: 'timestamptz', desc },
    { sql: 'h.seq', cast: 'bigint', desc },
  ];
}

/**
 * A page of a message's kept versions in `message_updated_at` order (`desc` = newest first). `next` continues
 * after the page, `prev` goes back before it; both are keyset cursors, so versions kept meanwhile do not shift
 * the pages.
 */
export async function pageHistory(
  q: Queryable,
  messageId: string,
  opts: {
    desc: boolean;
    limit: number;
    next?: string | undefined;
    prev?: string | undefined;
    /** Only the versions a moderator's removal replaced (a removed message shows nothing else). */
    removalsOnly?: boolean;
  },
): Promise<HistoryPage> {
  const forward = historyKeys(opts.desc);
  const backward = historyKeys(!opts.desc);
  const backwards = opts.prev !== undefined;
  const keys = backwards ? backward : forward;
  const token = backwards ? opts.prev : opts.next;
  const params: unknown[] = [messageId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const after = token === undefined ? 'true' : keysetCondition(keys, decodeCursor(keys, token), p);
  const order = keys.map((k) => `${k.sql} ${k.desc ? 'DESC' : 'ASC'}`).join(', ');
  const { rows } = await q.query<MessageHistoryRow & { k_at: string; k_seq: string }>(
    `SELECT h.*, h.message_updated_at::text AS k_at, h.seq::text AS k_seq
       FROM chat_message_history h
      WHERE h.message_id = $1 AND ${after}${opts.removalsOnly ? ' AND h.removed' : ''}
      ORDER BY ${order} LIMIT ${p(opts.limit + 1)}`,
    params,
  );
  const more = rows.length > opts.limit;
  const page = rows.slice(0, opts.limit);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  // Going forward there is an earlier page when a token brought us here; going back, a later one always exists.
  const hasNext = backwards ? page.length > 0 : more;
  const hasPrev = backwards ? more : token !== undefined && page.length > 0;
  return {
    rows: page.map(({ k_at: _a, k_seq: _s, ...row }) => row),
    ...(hasNext && last ? { next: encodeCursor(forward, [last.k_at, last.k_seq]) } : {}),
    ...(hasPrev && first ? { prev: encodeCursor(backward, [first.k_at, first.k_seq]) } : {}),
  };
}
