import crypto from 'node:crypto';
import type { Queryable } from '../../platform/db.js';
import type { Actor } from '../context.js';
import { inputError, notAllowed } from '../errors.js';
import { checkActive, roleOf } from '../policy/channel-access.js';
import { checkRefShape, requireChannelType } from '../policy/channel-types.js';
import { decidingRule } from '../policy/rules.js';
import { presentChannel } from '../presenters/channel.js';
import type { Outbox } from '../realtime/outbox.js';
import { getChannel } from '../store/channels.js';
import type { ChannelRow } from '../store/rows.js';
import { loadRules } from '../store/policy.js';
import { ensureUser, getUser, getUsers } from '../store/users.js';
import { checkCustomSize, customOf } from './custom.js';

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

/** Ids of channels created from a member list start with this; nobody else may create such an id. */
export const DISTINCT_PREFIX = '!members-';

/** Id of a channel created from a member list: the first one for a set of members gets this id. */
export function distinctId(members: string[]): { id: string; hash: string } {
  const hash = crypto
    .createHash('sha256')
    .update([...new Set(members)].sort().join('\n'))
    .digest('hex');
  return { id: `${DISTINCT_PREFIX}${hash.slice(0, 40)}`, hash };
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
 * The distinct-members channel of exactly `members` (in `team` when one is given: the server's calls; a user cannot
 * set a team): one created from that member list whose members are still exactly those, created by one of them or
 * by the server (no creator), oldest first. A channel someone else created, or whose members changed since, is never
 * handed back.
 */
async function findDistinct(
  q: Queryable,
  type: string,
  hash: string,
  members: string[],
  team: string | undefined,
): Promise<ChannelRow | undefined> {
  const { rows } = await q.query<{ cid: string }>(
    `SELECT c.cid FROM chat_channels c
      WHERE c.type = $1 AND c.member_hash = $2 AND c.deleted_at IS NULL AND ($4::text IS NULL OR c.team = $4)
        AND (c.created_by_id IS NULL OR c.created_by_id = ANY($3))
        AND (SELECT count(*) FROM chat_members m WHERE m.cid = c.cid) = cardinality($3::text[])
        AND NOT EXISTS (SELECT 1 FROM chat_members m WHERE m.cid = c.cid AND NOT m.user_id = ANY($3))
      ORDER BY c.created_at, c.cid LIMIT 1`,
    [type, hash, members, team ?? null],
  );
  const cid = rows[0]?.cid;
  return cid ? getChannel(q, cid) : undefined;
}

/**
 * Throws 403 (code 17) unless the actor may create a channel of this type: the server always may; a user when the
 * rules allow them `create-channel` in the type (built in: every user but anonymous ones; a type may deny it, as the
 * product does for its types: its chats are created through the product only).
 */
async function checkMayCreate(q: Queryable, actor: Actor, type: string): Promise<void> {
  if (actor.kind === 'server') return;
  if (actor.anonymous) throw notAllowed('anonymous users cannot create channels');
  const user = await getUser(q, actor.userId);
  checkActive(actor.userId, user);
  const rules = await loadRules(q, [type]);
  const subject = { channelType: type, roles: new Set([roleOf(actor, user)]), owner: true };
  if (decidingRule(rules, 'create-channel', subject)?.action !== 'Allow') {
    throw notAllowed(`You are not allowed to create channels of type "${type}"`);
  }
}

/**
 * Finds the channel, or creates it with its members when missing. Returns whether it was created.
 * A user creating a channel becomes its owner and a member (a user creates channels only as one of their members);
 * members must be known chat users. A channel asked for by member list (no id) is the distinct channel of exactly
 * those members (see `findDistinct`); when none is, a new one is created, under `distinctId` or, if a channel
 * already holds that id, under it with a random suffix. Ids starting with `!members-` are for these only. The server
 * creating one for a user names them in `createdById` (owner and `created_by`, written with the channel, before its
 * events).
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
  const ref = channelRefOf(actor, type, givenId, data, protectedFields);
  const { members, memberHash, creatorId } = ref;
  let { cid, id } = ref;
  const team = typeof data.team === 'string' ? data.team : undefined;
  if (memberHash) {
    // Creators of the same member list take turns, so they agree on one channel.
    await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `chat-distinct:${type}:${memberHash}`,
    ]);
    const existing = await findDistinct(q, type, memberHash, members, team);
    if (existing) return { channel: existing, created: false };
    const taken = await q.query('SELECT 1 FROM chat_channels WHERE cid = $1', [cid]);
    if (taken.rows.length > 0) {
      id = `${id}-${crypto.randomBytes(6).toString('hex')}`;
      cid = `${type}:${id}`;
    }
  } else {
    const existing = await getChannel(q, cid);
    if (existing) return { channel: existing, created: false };
  }
  await requireChannelType(q, type);
  await checkMayCreate(q, actor, type);
  if (!memberHash && actor.kind === 'user' && id.startsWith(DISTINCT_PREFIX)) {
    throw inputError(
      `channel ids starting with "${DISTINCT_PREFIX}" are for channels created by member list`,
    );
  }

  if (creatorId) await ensureUser(q, creatorId);
  const known = await getUsers(q, members);
  const missing = members.filter((m) => !known.has(m));
  if (missing.length > 0) {
    throw inputError(
      `The following users are specified in channel.members but don't exist: ${missing.join(', ')}`,
    );
  }
  checkCustomSize('channel', customOf(data));
  const inserted = await q.query(
    `INSERT INTO chat_channels (cid, type, id, team, name, custom, frozen, member_hash, created_by_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
    [
      cid,
      type,
      id,
      team ?? null,
      typeof data.name === 'string' ? data.name : null,
      JSON.stringify(customOf(data)),
      data.frozen === true,
      memberHash,
      creatorId ?? createdById ?? null,
    ],
  );
  if (inserted.rowCount === 0) {
    // Created concurrently by another request (by id: distinct lists take turns above): answer that one.
    const raced = memberHash ? undefined : await getChannel(q, cid);
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
