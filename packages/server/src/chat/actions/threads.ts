import {
  isSafeText,
  parseRequestDate,
  RESERVED_THREAD_FIELDS,
  THREAD_DEFAULTS,
  type QueryThreadsRequest,
  type Thread,
} from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed, notFound } from '../errors.js';
import { channelForActor, requireCapability } from '../policy/channel-access.js';
import { presentUser } from '../presenters/user.js';
import { lockSeq, write } from '../realtime/outbox.js';
import { checkCustomSize, mergedCustom } from './custom.js';
import { messageInViewSql, readableChannelSql } from '../policy/read-access.js';
import { memberIds } from '../store/channels.js';
import type { MessageRow } from '../store/rows.js';
import { getUser } from '../store/users.js';
import { channelIds, messageForActor, visibleMessageForActor } from '../views/messages.js';
import { presentThreads } from '../views/threads.js';

function userOnly(actor: Actor): string {
  if (actor.kind !== 'user' || actor.anonymous) throw notAllowed('threads are per user; use a user token');
  return actor.userId;
}

/**
 * A reply was written (same transaction as the send): the thread exists, every other participant has one more
 * unread reply, and the author has read the thread up to their reply.
 */
export async function doThreadReply(q: Queryable, parent: MessageRow, reply: MessageRow): Promise<void> {
  await q.query('INSERT INTO chat_threads (parent_id, cid) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    parent.id,
    parent.cid,
  ]);
  await q.query(
    `INSERT INTO chat_thread_reads (parent_id, user_id, unread_count, last_read)
     SELECT $1, x.user_id, 1, $3::timestamptz - interval '1 millisecond' FROM (
       SELECT DISTINCT user_id FROM chat_messages WHERE (id = $1 OR parent_id = $1) AND user_id IS NOT NULL
     ) x WHERE x.user_id IS DISTINCT FROM $2
     ON CONFLICT (parent_id, user_id) DO UPDATE SET unread_count = chat_thread_reads.unread_count + 1`,
    [parent.id, reply.user_id, reply.created_at],
  );
  if (reply.user_id) {
    await q.query(
      `INSERT INTO chat_thread_reads (parent_id, user_id, unread_count, last_read, last_read_message_id)
       VALUES ($1, $2, 0, $3, $4)
       ON CONFLICT (parent_id, user_id) DO UPDATE SET unread_count = 0, last_read = EXCLUDED.last_read,
         last_read_message_id = EXCLUDED.last_read_message_id`,
      [parent.id, reply.user_id, reply.created_at, reply.id],
    );
  }
}

function decodeCursor(next: string): { at: string; id: string } {
  try {
    const v = JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) as { at?: unknown; id?: unknown };
    // A cursor is the client's to send: a forged time is code 4, never a cast PostgreSQL refuses.
    if (parseRequestDate(v.at) && typeof v.id === 'string' && isSafeText(v.id)) {
      return { at: v.at as string, id: v.id };
    }
  } catch {
    // fall through
  }
  throw inputError('next is not a valid cursor');
}

/** `POST /chat/threads`: threads the caller takes part in, newest reply first, keyset-paged by `next`. */
export async function queryThreads(ctx: ChatContext, actor: Actor, req: QueryThreadsRequest) {
  const userId = userOnly(actor);
  const limit = req.limit ?? THREAD_DEFAULTS.query.limit;
  const cursor = req.next ? decodeCursor(req.next) : undefined;
  const { rows } = await ctx.db.query<MessageRow & { last_at: Date }>(
    `SELECT p.*, r.last_at FROM chat_messages p
       JOIN chat_members vm ON vm.cid = p.cid AND vm.user_id = $1 JOIN chat_channels c ON c.cid = p.cid
       JOIN LATERAL (SELECT max(created_at) AS last_at FROM chat_messages x WHERE x.parent_id = p.id) r ON true
      WHERE ${readableChannelSql('c', 'vm')} AND ${messageInViewSql({ message: 'p', member: 'vm', channel: 'c' })}
        AND p.reply_count > 0 AND r.last_at IS NOT NULL
        AND (p.user_id = $1 OR EXISTS (SELECT 1 FROM chat_messages x WHERE x.parent_id = p.id AND x.user_id = $1))
        AND ($2::timestamptz IS NULL OR (r.last_at, p.id) < ($2::timestamptz, $3::text))
      ORDER BY r.last_at DESC, p.id DESC LIMIT $4`,
    [userId, cursor?.at ?? null, cursor?.id ?? '', limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  if (req.watch && actor.kind === 'user' && actor.connectionId) {
    for (const cid of new Set(page.map((p) => p.cid)))
      await ctx.realtime.setWatching(actor.connectionId, cid, true);
  }
  const threads = await presentThreads(ctx.db, page, userId, {
    participant_limit: req.participant_limit ?? THREAD_DEFAULTS.query.participant_limit,
    reply_limit: req.reply_limit ?? THREAD_DEFAULTS.query.reply_limit,
  });
  const next =
    rows.length > limit && last
      ? Buffer.from(JSON.stringify({ at: last.last_at.toISOString(), id: last.id })).toString('base64url')
      : undefined;
  return { threads, ...(next ? { next } : {}) };
}

/** `GET /chat/threads/{id}`: one thread (participant_limit 100, reply_limit 3 by default). */
export async function getThread(
  ctx: ChatContext,
  actor: Actor,
  parentId: string,
  limits: { participant_limit?: number; reply_limit?: number; watch?: boolean },
): Promise<Thread> {
  const { row } = await visibleMessageForActor(ctx.db, actor, parentId);
  if (row.parent_id) throw inputError('Please specify the messageId of the thread’s parent message');
  if (limits.watch && actor.kind === 'user' && actor.connectionId) {
    await ctx.realtime.setWatching(actor.connectionId, row.cid, true);
  }
  const [thread] = await presentThreads(ctx.db, [row], actor.kind === 'user' ? actor.userId : undefined, {
    participant_limit: limits.participant_limit ?? THREAD_DEFAULTS.get.participant_limit,
    reply_limit: limits.reply_limit ?? THREAD_DEFAULTS.get.reply_limit,
  });
  if (!thread) throw notFound(`thread ${parentId} does not exist`);
  return thread;
}

/**
 * `PATCH /chat/threads/{id}`: sets or unsets the title and custom fields (the parent's author with
 * update-own-message, or update-any-message). Reserved fields are refused. Emits `thread.updated`.
 */
export async function updateThread(
  ctx: ChatContext,
  actor: Actor,
  parentId: string,
  set: Record<string, unknown>,
  unset: string[],
): Promise<Thread> {
  const reserved = new Set<string>(RESERVED_THREAD_FIELDS);
  for (const k of [...Object.keys(set), ...unset]) {
    if (reserved.has(k)) throw inputError(`You cannot set ${k} field on Thread object`);
  }
  if ('title' in set && typeof set.title !== 'string') throw inputError('title must be a string');
  await write(ctx, async (q, out) => {
    const { row, access } = await messageForActor(q, actor, parentId);
    if (row.parent_id) throw inputError('a reply is not a thread');
    const mine = actor.kind === 'user' && row.user_id === actor.userId;
    requireCapability(
      access,
      mine && access.caps?.has('update-own-message') ? 'update-own-message' : 'update-any-message',
      'update this thread',
    );
    const { title, ...custom } = set;
    await lockSeq(q, out, row.cid);
    const stored = await q.query<{ custom: Record<string, unknown> }>(
      'SELECT custom FROM chat_threads WHERE parent_id = $1 FOR UPDATE',
      [parentId],
    );
    checkCustomSize('thread', mergedCustom(stored.rows[0]?.custom, custom, unset));
    await q.query(
      `INSERT INTO chat_threads (parent_id, cid, title, custom) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (parent_id) DO UPDATE SET
         title = CASE WHEN $6 THEN NULL ELSE coalesce($3, chat_threads.title) END,
         custom = (chat_threads.custom || $4::jsonb) - $5::text[], updated_at = now()`,
      [
        parentId,
        row.cid,
        typeof title === 'string' ? title : null,
        JSON.stringify(custom),
        unset.filter((k) => k !== 'title'),
        unset.includes('title'),
      ],
    );
    const [thread] = await presentThreads(q, [row], undefined, THREAD_DEFAULTS.get);
    if (!thread) throw notFound(`thread ${parentId} does not exist`);
    out.channelEvent(await memberIds(q, row.cid), {
      type: 'thread.updated',
      ...channelIds(access.channel),
      thread,
      created_at: thread.updated_at,
    });
  });
  return getThread(ctx, actor, parentId, {});
}

/** `POST .../read` with `thread_id`: reads one thread; emits `message.read` (with `thread_id`) to the channel. */
export async function markThreadRead(ctx: ChatContext, actor: Actor, cid: string, parentId: string) {
  const userId = userOnly(actor);
  return write(ctx, async (q, out) => {
    const access = await channelForActor(q, actor, cid);
    requireCapability(access, 'read-events', 'send read events');
    const { row } = await messageForActor(q, actor, parentId);
    if (row.cid !== cid || row.parent_id) throw inputError(`message ${parentId} is not a thread of ${cid}`);
    await lockSeq(q, out, cid);
    const last = await q.query<{ id: string }>(
      'SELECT id FROM chat_messages WHERE parent_id = $1 ORDER BY seq DESC LIMIT 1',
      [parentId],
    );
    await q.query(
      `INSERT INTO chat_thread_reads (parent_id, user_id, unread_count, last_read, last_read_message_id)
       VALUES ($1, $2, 0, now(), $3)
       ON CONFLICT (parent_id, user_id) DO UPDATE SET unread_count = 0, last_read = now(),
         last_read_message_id = EXCLUDED.last_read_message_id`,
      [parentId, userId, last.rows[0]?.id ?? null],
    );
    const userRow = await getUser(q, userId);
    const event = {
      type: 'message.read' as const,
      ...channelIds(access.channel),
      user: userRow ? presentUser(userRow) : { id: userId },
      thread_id: parentId,
      ...(last.rows[0] ? { last_read_message_id: last.rows[0].id } : {}),
      created_at: new Date().toISOString(),
    };
    out.channelEvent(await memberIds(q, cid), event);
    return { event };
  });
}
