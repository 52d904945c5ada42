import crypto from 'node:crypto';
import type { Queryable } from '../../platform/db.js';
import type { Actor } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { checkRefShape, requireChannelType } from '../policy/channel-types.js';
import { presentChannel } from '../presenters/channel.js';
import type { Outbox } from '../realtime/outbox.js';
import { getChannel } from '../store/channels.js';
import type { ChannelRow } from '../store/rows.js';
import { ensureUser, getUsers } from '../store/users.js';
import { customOf } from './custom.js';

/** Channel data on create (a channel query's `data`, or the server API's input). */
export type ChannelData = { members?: string[]; team?: string; name?: string } & Record<string, unknown>;

/** Checks a channel type and id (chat-spec §5 Channel and ids); the type's existence is checked on create. */
export function checkChannelRef(type: string, id: string | undefined): void {
  checkRefShape(type, id);
}

/** Refuses a user setting a field only the server may set (e.g. `team`, the product's case plan links). */
export function checkProtectedFields(
  actor: Actor,
  keys: string[],
  protectedFields: ReadonlySet<string>,
): void {
  if (actor.kind === 'server') return;
  const field = keys.find((k) => protectedFields.has(k));
  if (field) throw notAllowed(`channel field "${field}" can only be set by the server`);
}

/** Id of a channel created from a member list: stable for the same set of members. */
export function distinctId(members: string[]): { id: string; hash: string } {
  const hash = crypto
    .createHash('sha256')
    .update([...new Set(members)].sort().join('\n'))
    .digest('hex');
  return { id: `!members-${hash.slice(0, 40)}`, hash };
}

/** The channel a get-or-create names, checked as on create (the checks apply to an existing channel too). */
export interface ChannelRef {
  cid: string;
  id: string;
  /** The members to create it with: the creating user first, then the listed ones. */
  members: string[];
  memberHash: string | null;
  creatorId: string | undefined;
}

/** Checks a get-or-create's type, id and data and names its channel (by member list when `id` is undefined). */
export function channelRefOf(
  actor: Actor,
  type: string,
  id: string | undefined,
  data: ChannelData,
  protectedFields: ReadonlySet<string>,
): ChannelRef {
  checkChannelRef(type, id);
  const creatorId = actor.kind === 'user' ? actor.userId : undefined;
  checkProtectedFields(actor, Object.keys(data), protectedFields);
  const listed = data.members ?? [];
  if (!listed.every((m) => typeof m === 'string' && m.length > 0))
    throw inputError('members must be user ids');
  const members = [...new Set(creatorId ? [creatorId, ...listed] : listed)];
  let memberHash: string | null = null;
  if (id === undefined) {
    if (listed.length === 0) throw inputError('Channel ID or channel members array have to be provided');
    ({ id, hash: memberHash } = distinctId(members));
  }
  return { cid: `${type}:${id}`, id, members, memberHash, creatorId };
}

/**
 * Finds the channel, or creates it with its members when missing. Returns whether it was created.
 * A user creating a channel becomes its owner and a member. Members must be known chat users. The server creating
 * one for a user names them in `createdById` (owner and `created_by`, written with the channel, before its events).
 */
export async function doGetOrCreateChannel(
  q: Queryable,
  out: Outbox,
  actor: Actor,
  type: string,
  givenId: string | undefined,
  data: ChannelData,
  protectedFields: ReadonlySet<string>,
  createdById?: string,
): Promise<{ channel: ChannelRow; created: boolean }> {
  const { cid, id, members, memberHash, creatorId } = channelRefOf(
    actor,
    type,
    givenId,
    data,
    protectedFields,
  );
  const existing = await getChannel(q, cid);
  if (existing) return { channel: existing, created: false };
  await requireChannelType(q, type);
  if (actor.kind === 'user' && actor.anonymous) throw notAllowed('anonymous users cannot create channels');

  if (creatorId) await ensureUser(q, creatorId);
  const known = await getUsers(q, members);
  const missing = members.filter((m) => !known.has(m));
  if (missing.length > 0) {
    throw inputError(
      `The following users are specified in channel.members but don't exist: ${missing.join(', ')}`,
    );
  }
  const inserted = await q.query(
    `INSERT INTO chat_channels (cid, type, id, team, name, custom, frozen, member_hash, created_by_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
    [
      cid,
      type,
      id,
      typeof data.team === 'string' ? data.team : null,
      typeof data.name === 'string' ? data.name : null,
      JSON.stringify(customOf(data)),
      data.frozen === true,
      memberHash,
      creatorId ?? createdById ?? null,
    ],
  );
  if (inserted.rowCount === 0) {
    // Created concurrently by another request: answer that one.
    const raced = await getChannel(q, cid);
    if (raced) return { channel: raced, created: false };
    throw inputError(`channel ${cid} could not be created`);
  }
  for (const userId of members) {
    await q.query(
      `INSERT INTO chat_members (cid, user_id, channel_role, unread_seq)
       VALUES ($1, $2, $3, (SELECT unread_seq FROM chat_channels WHERE cid = $1)) ON CONFLICT DO NOTHING`,
      [cid, userId, userId === (creatorId ?? createdById) ? 'owner' : 'channel_member'],
    );
  }
  const channel = await getChannel(q, cid);
  if (!channel) throw inputError(`channel ${cid} could not be created`);
  const now = new Date().toISOString();
  const presented = presentChannel(channel, undefined);
  for (const userId of members) {
    if (userId === creatorId) continue;
    out.notify(userId, {
      type: 'notification.added_to_channel',
      cid,
      channel_id: channel.id,
      channel_type: channel.type,
      channel: presented,
      created_at: now,
    });
  }
  return { channel, created: true };
}
