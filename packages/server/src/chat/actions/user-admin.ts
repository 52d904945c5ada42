import type { ChatUser, Message } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { notAllowed, notFound } from '../errors.js';
import { requireAdmin } from '../policy/channel-access.js';
import { peersOfSql } from '../policy/read-access.js';
import { presentUnknownUser, presentUser } from '../presenters/user.js';
import { write, type Outbox } from '../realtime/outbox.js';
import { revokeTokens } from '../realtime/revocations.js';
import type { MessageRow, ReactionRow, UserRow } from '../store/rows.js';
import { presentRows } from '../views/messages.js';
import { recountUnread } from './message-moderation.js';
import { runTask } from './tasks.js';

/** How a user's messages go with them: kept, soft-deleted (type `deleted`), or emptied (content gone for good). */
export type MessagesMode = 'keep' | 'soft' | 'hard';

async function lockUser(q: Queryable, id: string): Promise<UserRow> {
  const { rows } = await q.query<UserRow>('SELECT * FROM chat_users WHERE id = $1 FOR UPDATE', [id]);
  const row = rows[0];
  if (!row) throw notFound(`User "${id}" does not exist`);
  return row;
}

/** Everyone who may see the user (policy/read-access), and the user: the audience of `user.*` events. */
async function peersOf(q: Queryable, userId: string): Promise<string[]> {
  const { rows } = await q.query<{ user_id: string }>(peersOfSql('$1'), [userId]);
  return [...new Set([userId, ...rows.map((r) => r.user_id)])];
}

/** Soft-deletes (or empties) the user's messages; unread counts of the channels concerned follow. */
async function deleteMessagesOf(q: Queryable, userId: string, mode: MessagesMode): Promise<void> {
  if (mode === 'keep') return;
  const { rows } = await q.query<{ cid: string }>(
    mode === 'soft'
      ? `UPDATE chat_messages SET deleted_type = type, type = 'deleted', deleted_at = now(), updated_at = now()
          WHERE user_id = $1 AND type <> 'deleted' RETURNING cid`
      : `UPDATE chat_messages SET type = 'deleted', deleted_type = NULL, text = '', attachments = '[]'::jsonb,
                custom = '{}'::jsonb, mentioned_users = '{}', deleted_at = coalesce(deleted_at, now()),
                updated_at = now()
          WHERE user_id = $1 RETURNING cid`,
    [userId],
  );
  // Deleted or emptied messages carry no files: theirs are served no more.
  await q.query(
    `UPDATE chat_uploads u SET state = 'hidden' FROM chat_messages x
      WHERE x.id = u.message_id AND x.user_id = $1 AND x.type = 'deleted'`,
    [userId],
  );
  for (const cid of new Set(rows.map((r) => r.cid))) await recountUnread(q, cid);
}

function announce(
  out: Outbox,
  audience: string[],
  type: 'user.deleted' | 'user.deactivated' | 'user.reactivated',
  user: ChatUser,
  extra: { hard_delete?: boolean; mark_messages_deleted?: boolean } = {},
): void {
  out.transient({ users: audience, event: { type, user, ...extra, created_at: new Date().toISOString() } });
}

/**
 * `DELETE /chat/users/{id}` (server or admin). Soft: the user is marked deleted (their tokens stop working, their
 * messages stay unless `mark_messages_deleted`); `POST /chat/users/restore` brings them back. Hard: the user row,
 * memberships, reactions, devices and blocks are gone; their messages stay with no author, or emptied with
 * `mark_messages_deleted`. Emits `user.deleted` to the people who shared a channel with them.
 */
export async function deleteUser(
  ctx: ChatContext,
  actor: Actor,
  userId: string,
  opts: { hard: boolean; markMessagesDeleted: boolean },
): Promise<ChatUser> {
  await requireAdmin(ctx.db, actor, 'delete users');
  const user = await write(ctx, async (q, out) => {
    const row = await lockUser(q, userId);
    const audience = await peersOf(q, userId);
    await deleteMessagesOf(q, userId, !opts.markMessagesDeleted ? 'keep' : opts.hard ? 'hard' : 'soft');
    let presented: ChatUser;
    if (opts.hard) {
      const reacted = await q.query<{ message_id: string }>(
        'DELETE FROM chat_reactions WHERE user_id = $1 RETURNING message_id',
        [userId],
      );
      await regroupMessages(q, [...new Set(reacted.rows.map((r) => r.message_id))]);
      const channels = await q.query<{ cid: string }>('SELECT cid FROM chat_members WHERE user_id = $1', [
        userId,
      ]);
      await q.query('DELETE FROM chat_users WHERE id = $1', [userId]);
      for (const { cid } of channels.rows) await recountUnread(q, cid);
      presented = { ...presentUnknownUser(userId), deleted_at: new Date().toISOString() };
    } else {
      const { rows } = await q.query<UserRow>(
        'UPDATE chat_users SET deleted_at = now(), updated_at = now() WHERE id = $1 RETURNING *',
        [row.id],
      );
      presented = presentUser(rows[0] ?? row);
    }
    announce(out, audience, 'user.deleted', presented, {
      hard_delete: opts.hard,
      mark_messages_deleted: opts.markMessagesDeleted,
    });
    return presented;
  });
  await ctx.realtime.setInactive(userId, true);
  await revokeTokens(ctx, userId);
  return user;
}

/** Recomputes the reaction groups of messages after reactions went away (same SQL as a reaction delete). */
async function regroupMessages(q: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query(
    `UPDATE chat_messages x SET reaction_groups = coalesce((
       SELECT jsonb_object_agg(type, jsonb_build_object(
                'count', n, 'sum_scores', s,
                'first_reaction_at', to_char(f AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'last_reaction_at', to_char(l AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
         FROM (SELECT type, count(*)::int AS n, sum(score)::int AS s, min(created_at) AS f, max(updated_at) AS l
                 FROM chat_reactions r WHERE r.message_id = x.id GROUP BY type) g), '{}'::jsonb)
     WHERE x.id = ANY($1)`,
    [ids],
  );
}

/** `POST /chat/users/delete` (server or admin): several users as a task; per-user result. */
export async function deleteUsers(
  ctx: ChatContext,
  actor: Actor,
  userIds: string[],
  user: 'soft' | 'hard',
  messages: 'soft' | 'hard' | undefined,
): Promise<string> {
  await requireAdmin(ctx.db, actor, 'delete users');
  return runTask(ctx, actor, 'delete-users', async () => {
    const result: Record<string, { status: 'ok' | 'error'; error?: string }> = {};
    for (const id of new Set(userIds)) {
      try {
        await deleteUser(ctx, actor, id, {
          hard: user === 'hard',
          markMessagesDeleted: messages !== undefined,
        });
        result[id] = { status: 'ok' };
      } catch (err) {
        result[id] = { status: 'error', error: err instanceof Error ? err.message : String(err) };
      }
    }
    return result;
  });
}

/**
 * `POST /chat/users/{id}/deactivate` and `/reactivate` (server or admin). A deactivated user cannot connect or
 * act in any channel (their open connections close; tokens issued before now are refused); their messages stay
 * unless `mark_messages_deleted`. Emits `user.deactivated` / `user.reactivated`.
 */
export async function setDeactivated(
  ctx: ChatContext,
  actor: Actor,
  userIds: string[],
  deactivated: boolean,
  markMessagesDeleted = false,
): Promise<ChatUser[]> {
  await requireAdmin(ctx.db, actor, deactivated ? 'deactivate users' : 'reactivate users');
  const changed = await write(ctx, async (q, out) => {
    const result: Array<{ user: ChatUser; inactive: boolean }> = [];
    for (const id of new Set(userIds)) {
      await lockUser(q, id);
      const { rows } = await q.query<UserRow>(
        `UPDATE chat_users SET deactivated_at = CASE WHEN $2 THEN coalesce(deactivated_at, now()) END,
                updated_at = now() WHERE id = $1 RETURNING *`,
        [id, deactivated],
      );
      const row = rows[0];
      if (!row) continue;
      if (deactivated && markMessagesDeleted) await deleteMessagesOf(q, id, 'soft');
      const user = {
        ...presentUser(row),
        ...(row.deactivated_at ? { deactivated_at: row.deactivated_at.toISOString() } : {}),
      };
      announce(out, await peersOf(q, id), deactivated ? 'user.deactivated' : 'user.reactivated', user);
      // Reactivating a soft-deleted user leaves them inactive until restored.
      result.push({ user, inactive: row.deactivated_at !== null || row.deleted_at !== null });
    }
    return result;
  });
  for (const { user, inactive } of changed) {
    await ctx.realtime.setInactive(user.id, inactive);
    if (deactivated) await revokeTokens(ctx, user.id);
  }
  return changed.map((c) => c.user);
}

/** `POST /chat/users/restore` (server or admin): soft-deleted users come back (their messages stay as they are). */
export async function restoreUsers(ctx: ChatContext, actor: Actor, userIds: string[]): Promise<ChatUser[]> {
  await requireAdmin(ctx.db, actor, 'restore users');
  const { rows } = await ctx.db.query<UserRow>(
    `UPDATE chat_users SET deleted_at = NULL, updated_at = now()
      WHERE id = ANY($1) AND deleted_at IS NOT NULL RETURNING *`,
    [userIds],
  );
  for (const row of rows) await ctx.realtime.setInactive(row.id, row.deactivated_at !== null);
  return rows.map(presentUser);
}

/**
 * `GET /chat/users/{id}/export`: the user's record, every message they wrote and every reaction they gave (the
 * server, admins, and the user themselves: a person may take their own data).
 */
export async function exportUser(
  ctx: ChatContext,
  actor: Actor,
  userId: string,
): Promise<{ user: ChatUser; messages: Message[]; reactions: Array<Record<string, unknown>> }> {
  if (actor.kind !== 'user' || actor.userId !== userId) {
    await requireAdmin(ctx.db, actor, "export other users' data").catch(() => {
      throw notAllowed('only the server, an admin or the user may export a user');
    });
  }
  const user = await ctx.db.query<UserRow>('SELECT * FROM chat_users WHERE id = $1', [userId]);
  const row = user.rows[0];
  if (!row) throw notFound(`User "${userId}" does not exist`);
  const messages = await ctx.db.query<MessageRow>(
    'SELECT * FROM chat_messages WHERE user_id = $1 ORDER BY seq',
    [userId],
  );
  const reactions = await ctx.db.query<ReactionRow>(
    'SELECT * FROM chat_reactions WHERE user_id = $1 ORDER BY created_at',
    [userId],
  );
  return {
    user: presentUser(row),
    messages: await presentRows(ctx.db, messages.rows, userId),
    reactions: reactions.rows.map((r) => ({
      message_id: r.message_id,
      type: r.type,
      score: r.score,
      ...r.custom,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    })),
  };
}
