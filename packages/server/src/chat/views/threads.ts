import type { Thread } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { presentChannel } from '../presenters/channel.js';
import { presentMessage } from '../presenters/message.js';
import { iso } from '../presenters/time.js';
import { presentUnknownUser, presentUser } from '../presenters/user.js';
import { getChannel } from '../store/channels.js';
import { loadLookups } from '../store/messages.js';
import type { ChannelRow, MessageRow } from '../store/rows.js';
import { getUsers } from '../store/users.js';

interface ThreadRow {
  parent_id: string;
  title: string | null;
  custom: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

interface ParticipantRow {
  parent: string;
  user_id: string;
  first_at: Date;
  last_at: Date;
}

interface ReadRow {
  parent_id: string;
  user_id: string;
  last_read: Date;
  last_read_message_id: string | null;
  unread_count: number;
}

/** Threads of these parent messages as one viewer sees them, in the order given, in a few batched queries. */
export async function presentThreads(
  q: Queryable,
  parents: MessageRow[],
  viewerId: string | undefined,
  limits: { participant_limit: number; reply_limit: number },
): Promise<Thread[]> {
  const ids = parents.map((p) => p.id);
  if (ids.length === 0) return [];
  const threads = await q.query<ThreadRow>('SELECT * FROM chat_threads WHERE parent_id = ANY($1)', [ids]);
  const replies = await q.query<MessageRow>(
    `SELECT m.* FROM unnest($1::text[]) AS p(id)
       CROSS JOIN LATERAL (SELECT * FROM chat_messages x WHERE x.parent_id = p.id
                            ORDER BY x.seq DESC LIMIT $2) m
      ORDER BY m.parent_id, m.seq`,
    [ids, limits.reply_limit],
  );
  const participants = await q.query<ParticipantRow>(
    `SELECT parent, user_id, min(created_at) AS first_at, max(created_at) AS last_at FROM (
       SELECT id AS parent, user_id, created_at FROM chat_messages WHERE id = ANY($1)
       UNION ALL SELECT parent_id, user_id, created_at FROM chat_messages WHERE parent_id = ANY($1)
     ) x WHERE user_id IS NOT NULL GROUP BY parent, user_id ORDER BY parent, first_at`,
    [ids],
  );
  const reads = await q.query<ReadRow>('SELECT * FROM chat_thread_reads WHERE parent_id = ANY($1)', [ids]);
  const users = await getUsers(q, [
    ...participants.rows.map((p) => p.user_id),
    ...reads.rows.map((r) => r.user_id),
  ]);
  const lookups = await loadLookups(q, [...parents, ...replies.rows], viewerId);
  const channels = new Map<string, ChannelRow | undefined>();
  for (const cid of new Set(parents.map((p) => p.cid))) channels.set(cid, await getChannel(q, cid));
  const userOf = (id: string) => {
    const row = users.get(id);
    return row ? presentUser(row) : presentUnknownUser(id);
  };
  return parents.map((parent) => {
    const t = threads.rows.find((r) => r.parent_id === parent.id);
    const people = participants.rows.filter((p) => p.parent === parent.id);
    const latest = replies.rows.filter((r) => r.parent_id === parent.id);
    const lastAt = latest.at(-1)?.created_at;
    const channel = channels.get(parent.cid);
    const reserved = new Set(['title']);
    return {
      ...Object.fromEntries(Object.entries(t?.custom ?? {}).filter(([k]) => !reserved.has(k))),
      parent_message_id: parent.id,
      parent_message: presentMessage(parent, lookups),
      channel_cid: parent.cid,
      ...(channel ? { channel: presentChannel(channel, undefined) } : {}),
      ...(t?.title ? { title: t.title } : {}),
      reply_count: parent.reply_count,
      participant_count: people.length,
      thread_participants: people.slice(0, limits.participant_limit).map((p) => ({
        user_id: p.user_id,
        user: userOf(p.user_id),
        created_at: iso(p.first_at),
        last_thread_message_at: iso(p.last_at),
      })),
      latest_replies: latest.map((r) => presentMessage(r, lookups)),
      read: reads.rows
        .filter((r) => r.parent_id === parent.id)
        .map((r) => ({
          user: userOf(r.user_id),
          last_read: iso(r.last_read),
          ...(r.last_read_message_id ? { last_read_message_id: r.last_read_message_id } : {}),
          unread_messages: r.unread_count,
        })),
      created_at: iso(t?.created_at ?? parent.created_at),
      updated_at: iso(t?.updated_at ?? parent.updated_at),
      ...(lastAt ? { last_message_at: iso(lastAt) } : {}),
    };
  });
}
