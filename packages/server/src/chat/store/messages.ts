import type { MessagePagination } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { inputError } from '../errors.js';
import type { MessageRow, ReactionRow, UserRow } from './rows.js';
import { onlineSql } from '../realtime/presence.js';
import { getUsers } from './users.js';

/**
 * The columns of a message row (alias `m`) as the presenter and the views read them: every column but the search
 * index's `search_tsv` (written out as text for every row by `*`, never shown). A column added to chat_messages
 * is added here too.
 */
export function messageColumns(m: string): string {
  return [
    'id',
    'seq',
    'cid',
    'user_id',
    'type',
    'text',
    'parent_id',
    'show_in_channel',
    'quoted_message_id',
    'mentioned_users',
    'attachments',
    'custom',
    'silent',
    'poll_id',
    'pinned',
    'pinned_at',
    'pinned_by_id',
    'pin_expires',
    'reply_count',
    'reaction_groups',
    'created_at',
    'updated_at',
    'message_text_updated_at',
    'deleted_at',
    'deleted_type',
    'removed_by_moderator',
  ]
    .map((c) => `${m}.${c}`)
    .join(', ');
}

/** Latest reactions shown on a message (chat-spec §3 `latest_reactions`). */
const LATEST_REACTIONS = 10;

export async function getMessage(q: Queryable, id: string): Promise<MessageRow | undefined> {
  const { rows } = await q.query<MessageRow>('SELECT * FROM chat_messages WHERE id = $1', [id]);
  return rows[0];
}

/** Where a list of messages comes from: a channel's main list, or one thread. */
/**
 * Which messages a page comes from: a channel's main list after its cut-off (truncation or the viewer's cleared
 * history), or a thread's replies (after the same cut-off, if given).
 */
export type MessageScope =
  { cid: string; truncatedAt: Date | null } | { parentId: string; truncatedAt?: Date | null };

/**
 * One page of messages in server order (ascending `seq`), by keyset on `seq`:
 * newest page by default, or before/after/around a message id, or around a time.
 */
export async function listMessages(
  q: Queryable,
  scope: MessageScope,
  page: MessagePagination,
  defaultLimit: number,
): Promise<MessageRow[]> {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where =
    'cid' in scope
      ? [
          `cid = ${p(scope.cid)}`,
          '(parent_id IS NULL OR show_in_channel)',
          ...(scope.truncatedAt ? [`created_at > ${p(scope.truncatedAt)}`] : []),
        ]
      : [
          `parent_id = ${p(scope.parentId)}`,
          ...(scope.truncatedAt ? [`created_at > ${p(scope.truncatedAt)}`] : []),
        ];
  const limit = page.limit ?? defaultLimit;
  if (limit === 0) return [];
  const seqOf = async (id: string) => {
    const { rows } = await q.query<{ seq: number }>('SELECT seq FROM chat_messages WHERE id = $1', [id]);
    if (!rows[0]) throw inputError(`message with id ${id} does not exist`);
    return rows[0].seq;
  };
  const base = `SELECT ${messageColumns('chat_messages')} FROM chat_messages WHERE ${where.join(' AND ')}`;
  const before = async (cond: string, n: number) =>
    (await q.query<MessageRow>(`${base} AND ${cond} ORDER BY seq DESC LIMIT ${n}`, params)).rows.reverse();
  const after = async (cond: string, n: number) =>
    (await q.query<MessageRow>(`${base} AND ${cond} ORDER BY seq ASC LIMIT ${n}`, params)).rows;

  // A message id's place is read inside the page's statement (one round trip); only an empty page looks again,
  // to refuse an id that does not exist.
  // Seqs are per channel: a message of another channel has no place in this one (an empty page).
  const seqAt = (id: string) => {
    const where = `s.id = ${p(id)}${'cid' in scope ? ` AND s.cid = ${p(scope.cid)}` : ''}`;
    return `(SELECT s.seq FROM chat_messages s WHERE ${where})`;
  };
  const checked = async (rows: MessageRow[], id: string) => {
    if (rows.length === 0) await seqOf(id);
    return rows;
  };
  const around = async (column: string, value: string) => {
    const older = await before(`${column} < ${value}`, Math.floor(limit / 2));
    return [...older, ...(await after(`${column} >= ${value}`, limit - older.length))];
  };
  if (page.id_around) return checked(await around('seq', seqAt(page.id_around)), page.id_around);
  if (page.created_at_around) return around('created_at', p(new Date(page.created_at_around)));
  if (page.id_lt) return checked(await before(`seq < ${seqAt(page.id_lt)}`, limit), page.id_lt);
  if (page.id_lte) return checked(await before(`seq <= ${seqAt(page.id_lte)}`, limit), page.id_lte);
  if (page.id_gt) return checked(await after(`seq > ${seqAt(page.id_gt)}`, limit), page.id_gt);
  if (page.id_gte) return checked(await after(`seq >= ${seqAt(page.id_gte)}`, limit), page.id_gte);
  return before('true', limit);
}

/**
 * The newest `limit` main-list messages of several channels in one query (channel lists), oldest first per
 * channel. `after` gives each channel's cut-off (truncation or the viewer's cleared history).
 */
export async function latestMessages(
  q: Queryable,
  after: Map<string, Date | null>,
  limit: number,
): Promise<Map<string, MessageRow[]>> {
  const map = new Map<string, MessageRow[]>();
  const cids = [...after.keys()];
  if (cids.length === 0 || limit === 0) return map;
  // Per channel, walk the (cid, seq) index backwards and stop after `limit` rows: a long history is not read.
  const { rows } = await q.query<MessageRow>(
    `SELECT m.* FROM unnest($1::text[], $2::timestamptz[]) AS a(cid, after)
       CROSS JOIN LATERAL (
         SELECT ${messageColumns('x')} FROM chat_messages x
          WHERE x.cid = a.cid AND (x.parent_id IS NULL OR x.show_in_channel)
            AND (a.after IS NULL OR x.created_at > a.after)
          ORDER BY x.seq DESC LIMIT $3) m
      ORDER BY m.cid, m.seq`,
    [cids, cids.map((c) => after.get(c) ?? null), limit],
  );
  for (const row of rows) push(map, row.cid, row);
  return map;
}

/** Pinned messages in force (not expired, not deleted) of several channels, newest pin first, in one query. */
export async function pinnedMessages(
  q: Queryable,
  after: Map<string, Date | null>,
  limit: number,
): Promise<Map<string, MessageRow[]>> {
  const map = new Map<string, MessageRow[]>();
  const cids = [...after.keys()];
  if (cids.length === 0) return map;
  const { rows } = await q.query<MessageRow>(
    `SELECT m.* FROM unnest($1::text[], $2::timestamptz[]) AS a(cid, after)
       CROSS JOIN LATERAL (
         SELECT ${messageColumns('x')} FROM chat_messages x
          WHERE x.cid = a.cid AND x.pinned AND x.type <> 'deleted' AND (x.pin_expires IS NULL OR x.pin_expires > now())
            AND (a.after IS NULL OR x.created_at > a.after)
          ORDER BY x.pinned_at DESC, x.seq DESC LIMIT $3) m
      ORDER BY m.cid, m.pinned_at DESC, m.seq DESC`,
    [cids, cids.map((c) => after.get(c) ?? null), limit],
  );
  for (const row of rows) push(map, row.cid, row);
  return map;
}

/** Everything the message presenter needs beyond the rows, loaded in a few batched queries. */
export interface MessageLookups {
  viewerId: string | undefined;
  users: Map<string, UserRow>;
  quoted: Map<string, MessageRow>;
  ownReactions: Map<string, ReactionRow[]>;
  latestReactions: Map<string, ReactionRow[]>;
  hiddenForViewer: Set<string>;
}

/** `alsoUsers`: more users to read into `users` in the same statement (a channel state's creators, its viewer). */
export async function loadLookups(
  q: Queryable,
  rows: MessageRow[],
  viewerId: string | undefined,
  alsoUsers: Iterable<string> = [],
): Promise<MessageLookups> {
  const ids = rows.map((r) => r.id);
  const quotedIds = rows.flatMap((r) => (r.quoted_message_id ? [r.quoted_message_id] : []));
  const quoted = new Map<string, MessageRow>();
  if (quotedIds.length > 0) {
    const res = await q.query<MessageRow>(
      `SELECT ${messageColumns('m')} FROM chat_messages m WHERE m.id = ANY($1)`,
      [quotedIds],
    );
    for (const row of res.rows) quoted.set(row.id, row);
  }
  const all = [...rows, ...quoted.values()];
  const latestReactions = new Map<string, ReactionRow[]>();
  const ownReactions = new Map<string, ReactionRow[]>();
  const hiddenForViewer = new Set<string>();
  const withReactions = rows.filter((r) => Object.keys(r.reaction_groups).length > 0).map((r) => r.id);
  if (withReactions.length > 0) {
    // The latest few per message through the (message_id, created_at DESC) index, and the viewer's own.
    const res = await q.query<ReactionRow & { latest: boolean }>(
      `SELECT r.*, true AS latest FROM unnest($1::text[]) AS a(id)
         CROSS JOIN LATERAL (SELECT * FROM chat_reactions x WHERE x.message_id = a.id
                              ORDER BY x.created_at DESC LIMIT $2) r
       UNION ALL
       SELECT r.*, false FROM chat_reactions r WHERE r.message_id = ANY($1) AND r.user_id = $3
       ORDER BY message_id, created_at DESC`,
      [withReactions, LATEST_REACTIONS, viewerId ?? null],
    );
    for (const { latest, ...r } of res.rows) push(latest ? latestReactions : ownReactions, r.message_id, r);
  }
  const userIds = new Set<string>(alsoUsers);
  for (const r of all) {
    if (r.user_id) userIds.add(r.user_id);
    for (const m of r.mentioned_users) userIds.add(m);
  }
  for (const list of latestReactions.values()) for (const r of list) userIds.add(r.user_id);
  let users: Map<string, UserRow>;
  let hiddenRead = !viewerId || ids.length === 0;
  if (!hiddenRead && userIds.size > 0) {
    // The users (as `store/users` `getUsers` reads them) and, beside each, the messages the viewer hid: one
    // statement instead of two.
    const res = await q.query<UserRow & { hidden_ids: string[] }>(
      `SELECT u.*, ${onlineSql('u')} AS online,
              ARRAY(SELECT h.message_id FROM chat_message_hidden h
                     WHERE h.user_id = $2 AND h.message_id = ANY($3)) AS hidden_ids
         FROM chat_users u WHERE u.id = ANY($1)`,
      [[...userIds], viewerId, ids],
    );
    users = new Map();
    for (const { hidden_ids, ...user } of res.rows) {
      users.set(user.id, user);
      if (!hiddenRead) for (const id of hidden_ids) hiddenForViewer.add(id);
      hiddenRead = true;
    }
  } else {
    users = await getUsers(q, userIds);
  }
  if (!hiddenRead) {
    const res = await q.query<{ message_id: string }>(
      'SELECT message_id FROM chat_message_hidden WHERE user_id = $1 AND message_id = ANY($2)',
      [viewerId, ids],
    );
    for (const r of res.rows) hiddenForViewer.add(r.message_id);
  }
  return { viewerId, users, quoted, ownReactions, latestReactions, hiddenForViewer };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
