import crypto from 'node:crypto';
import * as linkify from 'linkifyjs';
import {
  CHAT_LIMITS,
  ChatErrorCode,
  cooldownMessage,
  findUnsafeInput,
  pathText,
  type Message,
  type NewMessage,
} from '@caseroom/protocol';
import { prepared, type Queryable, type Tx } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { ChatError, inputError, notFound } from '../errors.js';
import { maxMessageLength } from '../policy/channel-types.js';
import { lockedChannelForActor, requireCapability, type ChannelAccess } from '../policy/channel-access.js';
import { presentChannel } from '../presenters/channel.js';
import { presentMessage, RESERVED_MESSAGE_FIELDS } from '../presenters/message.js';
import { write, type Outbox } from '../realtime/outbox.js';
import { checkNotBlocked } from './blocks.js';
import { checkCustomSize } from './custom.js';
import { doThreadReply } from './threads.js';
import { attachUploads, checkAttachments, fileRefsOf } from '../files/attach.js';
import { queueEnrichment } from './url-enrichment.js';
import { readerSql } from '../store/channels.js';
import { getMessage, loadLookups, type MessageLookups } from '../store/messages.js';
import type { ChannelRow, MessageRow, UserRow } from '../store/rows.js';

/** Code 20 when the text is longer than `max` (the global 5,000 or the channel type's `max_message_length`). */
export function checkLength(text: string, max: number): void {
  if (text.length > max) {
    throw new ChatError(
      ChatErrorCode.MessageTooLong,
      `message is too long: ${text.length} characters, the maximum is ${max}`,
      400,
    );
  }
}

/** The custom data of a new message: every field that is not one of the message's own. */
export function messageCustom(input: NewMessage): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([k]) => !RESERVED_MESSAGE_FIELDS.has(k)));
}

/**
 * Checks a new message on its own (before any database work): text PostgreSQL can store (the HTTP API refuses it
 * earlier; this covers the server-side API), length, content, shape, custom data within its limit.
 */
export function checkNewMessage(input: NewMessage, actor: Actor): void {
  const unsafe = findUnsafeInput(input);
  if (unsafe) throw inputError(`message.${pathText(unsafe.path, '')}: ${unsafe.message}`);
  checkCustomSize('message', messageCustom(input));
  checkAttachments(input.attachments);
  const text = input.text ?? '';
  checkLength(text, CHAT_LIMITS.maxMessageLength);
  if (text.trim() === '' && !input.attachments?.length && !input.poll_id) {
    throw inputError('message must have text, attachments or a poll');
  }
  if (input.type === 'system' && actor.kind !== 'server') {
    throw inputError('only the server may send system messages');
  }
}

/** True when the text holds a URL (with or without a scheme: `example.com/a` counts), as linkifyjs finds them. */
export function hasLinks(text: string): boolean {
  return text !== '' && linkify.find(text, 'url').length > 0;
}

/** Message id already taken: answered with code 4 so a resend counts as received (chat-spec §4). */
function duplicateId(id: string): ChatError {
  return inputError(`SendMessage failed with error: "a message with id ${id} already exists"`);
}

async function checkReferences(q: Queryable, channel: ChannelRow, input: NewMessage, access: ChannelAccess) {
  let parent: MessageRow | undefined;
  if (input.parent_id) {
    requireCapability(access, 'send-reply', 'send thread replies');
    parent = await getMessage(q, input.parent_id);
    if (!parent || parent.cid !== channel.cid)
      throw notFound(`parent message ${input.parent_id} does not exist`);
    if (parent.parent_id) {
      throw new ChatError(ChatErrorCode.MultipleNestingLevel, 'replies to replies are not allowed', 400);
    }
  } else {
    requireCapability(access, 'send-message', 'send messages');
  }
  if (input.quoted_message_id) {
    requireCapability(access, 'quote-message', 'quote messages');
    const quoted = await getMessage(q, input.quoted_message_id);
    if (!quoted || quoted.cid !== channel.cid) {
      throw notFound(`quoted message ${input.quoted_message_id} does not exist`);
    }
  }
  if (input.attachments?.length) requireCapability(access, 'upload-file', 'send attachments');
  // Links are looked for only when they would be refused (linkify is the costly part of a plain send's checks).
  if (access.caps && !access.caps.has('send-links') && hasLinks(input.text ?? '')) {
    requireCapability(access, 'send-links', 'send links');
  }
  return parent;
}

async function checkCooldown(q: Queryable, access: ChannelAccess, userId: string | null) {
  const { channel, caps } = access;
  if (channel.cooldown <= 0 || !userId || !caps || caps.has('skip-slow-mode')) return;
  const { rows } = await q.query<{ wait: number }>(
    `SELECT ceil(extract(epoch FROM (max(created_at) + make_interval(secs => $3) - now())))::int AS wait
       FROM chat_messages WHERE cid = $1 AND user_id = $2`,
    [channel.cid, userId, channel.cooldown],
  );
  const wait = rows[0]?.wait ?? 0;
  if (wait > 0) throw new ChatError(ChatErrorCode.Cooldown, cooldownMessage(wait), 429);
}

/** The presenter's lookups for a message nobody reacted to, quoting nothing: its author and mentioned users. */
function newMessageLookups(row: MessageRow, known: ReadonlyMap<string, UserRow>): MessageLookups {
  const users = new Map<string, UserRow>();
  for (const id of [row.user_id, ...row.mentioned_users]) {
    const user = id ? known.get(id) : undefined;
    if (user) users.set(user.id, user);
  }
  return {
    viewerId: undefined,
    users,
    quoted: new Map(),
    ownReactions: new Map(),
    latestReactions: new Map(),
    hiddenForViewer: new Set(),
  };
}

/** Stages `message.new` for the channel's audience and `notification.message_new` for the others not watching. */
function stageNewMessage(
  out: Outbox,
  channel: ChannelRow,
  members: string[],
  userId: string | null,
  row: MessageRow,
  message: Message,
  inMainList: boolean,
): void {
  const now = message.created_at;
  const ids = { cid: channel.cid, channel_id: channel.id, channel_type: channel.type };
  const user = message.user;
  out.channelEvent(members, {
    type: 'message.new',
    ...ids,
    message,
    ...(user ? { user } : {}),
    created_at: now,
  });
  if (inMainList) {
    out.transient({
      users: members.filter((m) => m !== userId),
      watch: 'not-watching',
      event: {
        type: 'notification.message_new',
        ...ids,
        channel: presentChannel({ ...channel, last_message_at: row.created_at }, undefined),
        message,
        created_at: now,
      },
    });
  }
}

/** A JSON value as it reads back from a `jsonb` column: object keys shorter first, then in byte order. */
export function asJsonb(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asJsonb);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([k, v]) => [Buffer.from(k), k, v] as const);
  entries.sort(([a], [b]) => a.length - b.length || Buffer.compare(a, b));
  return Object.fromEntries(entries.map(([, k, v]) => [k, asJsonb(v)]));
}

/**
 * The write of {@link sendPlainMessage}, planned once per connection: the message, the channel's order and counter,
 * hidden members back, the sender's read state (`$12`: the sender reads the channel) and the events (`$14`, rows
 * of `chat_events`). A repeated id writes nothing: every part waits on the insert.
 */
const insertPlainMessage = prepared(
  'insert_plain_message',
  [
    'text',
    'text',
    'text',
    'text',
    'text',
    'text[]',
    'jsonb',
    'jsonb',
    'boolean',
    'text',
    'int',
    'boolean',
    'int',
    'chat_events[]',
    'bigint',
  ],
  () => `WITH ins AS (
       INSERT INTO chat_messages (id, seq, cid, user_id, type, text, parent_id, show_in_channel, quoted_message_id,
                                  mentioned_users, attachments, custom, silent, poll_id)
       VALUES ($1, $15, $2, $3, $4, $5, NULL, false, NULL, $6, $7, $8, $9, $10)
       ON CONFLICT (id) DO NOTHING RETURNING id, seq, created_at),
     channel AS (
       UPDATE chat_channels ch SET last_message_at = ins.created_at, updated_at = ins.created_at,
              unread_seq = ch.unread_seq + $11, last_seq = $15
         FROM ins WHERE ch.cid = $2),
     unhide AS (
       UPDATE chat_members m SET hidden = false
        WHERE m.cid = $2 AND m.hidden AND (NOT $12 OR m.user_id <> $3) AND EXISTS (SELECT 1 FROM ins)),
     own_read AS (
       UPDATE chat_members m SET last_read = ins.created_at, last_read_message_id = ins.id, unread_base = 0,
              unread_seq = $13, hidden = false
         FROM ins WHERE m.cid = $2 AND m.user_id = $3 AND $12),
     events AS (
       INSERT INTO chat_events (cid, seq, user_id, type, message_id, payload, created_at)
       SELECT e.cid, e.seq, e.user_id, e.type, e.message_id, e.payload, e.created_at
         FROM unnest($14) WITH ORDINALITY AS e(id, cid, seq, user_id, type, message_id, payload, created_at, n)
        WHERE EXISTS (SELECT 1 FROM ins) ORDER BY e.n)
     SELECT seq FROM ins`,
);

/**
 * A message in the main list that neither replies nor quotes, written in the transaction's last round trip: the
 * row is known before it is written (the audience, the users and the transaction's `now()` were read with the
 * lock), so the message is presented and its events staged first, and one statement writes the message, the
 * channel's order and counter, hidden members back, the sender's read state and the `chat_events` rows, followed
 * by the COMMIT. A repeated id writes nothing (every part waits on the insert) and answers code 4.
 */
async function sendPlainMessage(
  q: Tx,
  out: Outbox,
  access: Awaited<ReturnType<typeof lockedChannelForActor>>,
  input: NewMessage,
  f: { id: string; userId: string | null; type: string; text: string; custom: object; counts: number },
): Promise<{ row: MessageRow; message: Message }> {
  const { channel, audience } = access;
  const cid = channel.cid;
  const readers = new Set(audience);
  const mentioned = [...new Set(input.mentioned_users ?? [])].filter((m) => readers.has(m));
  const readsOwn = f.userId !== null && readers.has(f.userId);
  const attachments = JSON.stringify(input.attachments ?? []);
  const custom = JSON.stringify(f.custom);
  // JSON through JSON.parse as the column gives it back (jsonb orders keys), so the answer is the same bytes.
  // The message takes the seq its `message.new` takes: the next number of the channel's counter (locked).
  const seq = out.nextSeq(cid);
  const row: MessageRow = {
    id: f.id,
    seq,
    cid,
    user_id: f.userId,
    type: f.type,
    text: f.text,
    parent_id: null,
    show_in_channel: false,
    quoted_message_id: null,
    mentioned_users: mentioned,
    attachments: asJsonb(JSON.parse(attachments)) as MessageRow['attachments'],
    custom: asJsonb(JSON.parse(custom)) as MessageRow['custom'],
    silent: input.silent === true,
    poll_id: input.poll_id ?? null,
    pinned: false,
    pinned_at: null,
    pinned_by_id: null,
    pin_expires: null,
    reply_count: 0,
    reaction_groups: {},
    created_at: access.now,
    updated_at: access.now,
    message_text_updated_at: null,
    deleted_at: null,
    deleted_type: null,
  };
  const message = presentMessage(row, newMessageLookups(row, access.users));
  stageNewMessage(out, channel, audience, f.userId, row, message, true);
  // The records as `chat_events` rows (`id` left to its default), in the order they were staged; the channel's
  // counter is written back by the same statement (`$15`: this write stages only the message's event).
  const events = out.takeRecords().map((r) => `ROW(NULL, ${r.slice(1)}::chat_events`);
  const counters = out.takeCounters();
  if (counters.length !== 1 || counters[0]?.[1] !== seq) throw new Error('a plain send numbers one event');
  const inserted = await q.commit<{ seq: number }>(
    insertPlainMessage([
      f.id,
      cid,
      f.userId,
      f.type,
      f.text,
      mentioned,
      attachments,
      custom,
      row.silent,
      row.poll_id,
      f.counts,
      readsOwn,
      channel.unread_seq + f.counts,
      { sql: `ARRAY[${events.join(', ')}]::chat_events[]` },
      seq,
    ]),
  );
  const written = inserted.rows[0];
  if (!written) throw duplicateId(f.id);
  return { row, message };
}

/** Writes a new message and its effects (order, counters, unread state) and stages its events. */
export async function doSendMessage(
  q: Tx,
  out: Outbox,
  actor: Actor,
  cid: string,
  input: NewMessage,
  senderId: string | undefined,
): Promise<{ row: MessageRow; channel: ChannelRow; message: Message }> {
  checkNewMessage(input, actor);
  const userId = actor.kind === 'user' ? actor.userId : (senderId ?? null);
  const mentionedInput = [...new Set(input.mentioned_users ?? [])];
  // One writer per channel at a time: server order, cooldown and counters stay consistent. The lock, the access
  // check and the users the message shows come in one round trip.
  const access = await lockedChannelForActor(
    q,
    actor,
    cid,
    userId ? [userId, ...mentionedInput] : mentionedInput,
  );
  const { channel } = access;
  out.locked(channel.cid, channel.last_seq);
  checkLength(input.text ?? '', maxMessageLength(channel));
  await checkNotBlocked(q, cid, channel.member_count, userId);
  const parent = await checkReferences(q, channel, input, access);
  await checkCooldown(q, access, userId);
  const id = input.id ?? crypto.randomUUID();
  if (fileRefsOf(input.attachments).size > 0) {
    // The files become the message's before it is written (its insert is the transaction's last statement); a
    // repeated id must not attach anything, so it is refused here first.
    if (await getMessage(q, id)) throw duplicateId(id);
    await attachUploads(q, actor, cid, id, input.attachments);
  }

  const custom = messageCustom(input);
  const inMainList = !parent || input.show_in_channel === true;
  // Counting the message is what raises every member's unread count (computed on read: store/channels unreadSql).
  const type = parent ? 'reply' : (input.type ?? 'regular');
  const counts = inMainList && input.silent !== true && type !== 'system' ? 1 : 0;
  const text = (input.text ?? '').replace(/^\n+|\n+$/g, '');
  if (!parent && !input.quoted_message_id) {
    const fields = { id, userId, type, text, custom, counts };
    return { ...(await sendPlainMessage(q, out, access, input, fields)), channel };
  }
  // One statement: the channel's audience (store/channels memberIds, read after the lock), the message (mentions
  // kept only for members), the channel's order and counter, hidden members back, the sender's read state.
  const inserted = await q.query<MessageRow & { audience: string[] }>(
    `WITH audience AS (SELECT user_id FROM chat_members WHERE cid = $2 AND ${readerSql()}),
     own AS (SELECT EXISTS (SELECT 1 FROM audience WHERE user_id = $3) AS reads),
     ins AS (
       INSERT INTO chat_messages (id, seq, cid, user_id, type, text, parent_id, show_in_channel, quoted_message_id,
                                  mentioned_users, attachments, custom, silent, poll_id)
       VALUES ($1, $17, $2, $3, $4, $5, $6, $7, $8,
               ARRAY(SELECT x.u FROM unnest($9::text[]) WITH ORDINALITY AS x(u, i)
                      WHERE x.u IN (SELECT user_id FROM audience) ORDER BY x.i),
               $10, $11, $12, $13)
       ON CONFLICT (id) DO NOTHING RETURNING *),
     channel AS (
       UPDATE chat_channels c SET last_message_at = ins.created_at, updated_at = ins.created_at,
              unread_seq = c.unread_seq + $15::int
         FROM ins WHERE c.cid = ins.cid AND $14::boolean),
     unhide AS (
       UPDATE chat_members m SET hidden = false
        WHERE m.cid = $2 AND m.hidden AND $14::boolean AND (NOT (SELECT reads FROM own) OR m.user_id <> $3)
          AND EXISTS (SELECT 1 FROM ins)),
     own_read AS (
       UPDATE chat_members m SET last_read = ins.created_at, last_read_message_id = ins.id, unread_base = 0,
              unread_seq = $16::int, hidden = CASE WHEN $14::boolean THEN false ELSE m.hidden END
         FROM ins WHERE m.cid = $2 AND m.user_id = $3 AND (SELECT reads FROM own))
     SELECT ins.*, ARRAY(SELECT user_id FROM audience) AS audience FROM ins`,
    [
      id,
      cid,
      userId,
      type,
      text,
      parent?.id ?? null,
      parent ? input.show_in_channel === true : false,
      input.quoted_message_id ?? null,
      mentionedInput,
      JSON.stringify(input.attachments ?? []),
      JSON.stringify(custom),
      input.silent === true,
      input.poll_id ?? null,
      inMainList,
      counts,
      channel.unread_seq + counts,
      out.nextSeq(cid),
    ],
  );
  const first = inserted.rows[0];
  if (!first) throw duplicateId(id);
  const { audience: members, ...row } = first;
  if (parent) {
    await q.query('UPDATE chat_messages SET reply_count = reply_count + 1 WHERE id = $1', [parent.id]);
    await doThreadReply(q, parent, row);
  }

  // A plain new message needs only its users (read with the lock); replies and quotes load the rest.
  const lookups =
    parent || row.quoted_message_id
      ? await loadLookups(q, parent ? [row, parent] : [row], undefined)
      : newMessageLookups(row, access.users);
  const message = presentMessage(row, lookups);
  const now = message.created_at;
  const ids = { cid, channel_id: channel.id, channel_type: channel.type };
  stageNewMessage(out, channel, members, userId, row, message, inMainList);
  if (parent) {
    const updated = await getMessage(q, parent.id);
    if (updated) {
      const parentMessage = presentMessage(updated, lookups);
      out.channelEvent(members, { type: 'message.updated', ...ids, message: parentMessage, created_at: now });
    }
  }
  return { row, channel, message };
}

/** `POST /chat/channels/{type}/{id}/message` and the server API's `sendMessage`. */
export async function sendMessage(
  ctx: ChatContext,
  actor: Actor,
  cid: string,
  input: NewMessage,
  senderId?: string,
  options: { skipEnrichUrl?: boolean } = {},
): Promise<Message> {
  const { channel, message } = await write(ctx, (q, out) =>
    doSendMessage(q, out, actor, cid, input, senderId),
  );
  // The first link's preview is added later by a `message.updated` (url_enrichment; a failure leaves the message).
  await queueEnrichment(ctx, channel, message, options.skipEnrichUrl).catch((err: unknown) => {
    ctx.log.warn({ err, cid }, 'queueing the link preview failed');
  });
  for (const hook of ctx.hooks.messageNew) {
    try {
      await hook({
        cid,
        channel: { ...(channel.team ? { team: channel.team } : {}), custom: channel.custom },
        message,
      });
    } catch (err) {
      ctx.log.error({ err, cid }, 'message.new hook failed');
    }
  }
  return message;
}
