import crypto from 'node:crypto';
import { CHAT_POSITIONS, type ChatPosition } from '../src/chat/policy/matrix.js';
import type { TestServer } from './helpers/server.js';
import { chatCall, type Reply } from './chat-support.js';

/** The chat matrix's world: one user per position (anonymous has none) and the main channel built for them. */
export interface ChatWorld {
  /** User id per position (`anonymous`: none). */
  ids: Record<Exclude<ChatPosition, 'anonymous'>, string>;
  tokens: Record<Exclude<ChatPosition, 'anonymous'>, string>;
  /** The position of each user id. */
  positionOf: Map<string, ChatPosition>;
  main: ChannelFixture;
  /** Every channel built for the matrix (events about them are checked against the read rule). */
  cids: Set<string>;
  team: string;
  /** The word the main channel's messages carry (search). */
  word: string;
  /** A channel of exactly owner and member, made by member list (`POST /chat/channels/messaging/query`). */
  pair: { cid: string };
  /** While set: the calls made as `position` that changed something (a refused call must change nothing). */
  writes?: { position: ChatPosition; changed: string[] };
  /** Told when a channel is being built (events of that time reached its members of that time). */
  onBuild?: { mark(cid: string, step: 'start' | 'removed' | 'banned'): Promise<void> };
}

export interface ChannelFixture {
  type: 'messaging';
  id: string;
  cid: string;
  /** A main-list message by `member`, parent of a thread the removed and banned members replied in. */
  parentId: string;
  /** A message by `owner`, sent after every position took its place (everyone in the channel has it unread). */
  lastId: string;
  /** The removed member's reply in the thread (someone else's message for everyone still there). */
  removedReplyId: string;
}

const rand = () => crypto.randomUUID().slice(0, 8);

/** Calls the chat API as a position (anonymous: `Auth-Type: anonymous`, no token). */
export async function callAs<T = Record<string, unknown>>(
  server: TestServer,
  world: ChatWorld,
  position: ChatPosition,
  method: string,
  path: string,
  options: { body?: unknown; query?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const auth = position === 'anonymous' ? { authType: 'anonymous' } : { token: world.tokens[position] };
  const watch = world.writes?.position === position ? world.writes : undefined;
  const before = watch ? await writeMark(server) : undefined;
  const reply = await chatCall<T>(server, method, path, { ...auth, ...options });
  if (watch && before !== undefined && (await writeMark(server)) !== before) {
    watch.changed.push(`${method} ${path}`);
  }
  return reply;
}

/**
 * What a write leaves behind, as one string: the newest recorded event, the row counts of messages, members,
 * reactions and flags, and the newest `updated_at` of messages, members and channels.
 */
async function writeMark(server: TestServer): Promise<string> {
  const { rows } = await server.db.query<{ mark: string }>(
    `SELECT concat_ws('/', (SELECT max(seq) FROM chat_events), (SELECT count(*) FROM chat_messages),
       (SELECT count(*) FROM chat_members), (SELECT count(*) FROM chat_reactions), (SELECT count(*) FROM chat_flags),
       (SELECT max(updated_at) FROM chat_messages), (SELECT max(updated_at) FROM chat_members),
       (SELECT max(updated_at) FROM chat_channels)) AS mark`,
  );
  return rows[0]?.mark ?? '';
}

async function ok(reply: Promise<Reply>, what: string): Promise<Reply> {
  const r = await reply;
  if (r.status >= 300) throw new Error(`fixture: ${what} answered ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

/** Users for every position; the main channel. */
export async function buildChatWorld(server: TestServer): Promise<ChatWorld> {
  const api = server.app.chat.server;
  const team = `org-${rand()}`;
  const ids = {} as ChatWorld['ids'];
  const tokens = {} as ChatWorld['tokens'];
  for (const p of CHAT_POSITIONS) {
    if (p === 'anonymous' || p === 'chatGuest') continue;
    ids[p] = `az-${p}-${rand()}`;
  }
  await api.upsertUsers(
    Object.entries(ids).map(([p, id]) => ({
      id,
      name: `Authz ${p}`,
      ...(p === 'client' ? { clientOf: [team] } : {}),
      ...(p === 'guest' ? { guestOf: [team] } : {}),
    })),
  );
  for (const [p, id] of Object.entries(ids)) tokens[p as keyof typeof tokens] = await api.createToken(id);
  const visitor = await ok(
    chatCall(server, 'POST', '/guest', { body: { user: { id: `az-visitor-${rand()}`, name: 'Visitor' } } }),
    'guest',
  );
  ids.chatGuest = (visitor.body.user as { id: string }).id;
  tokens.chatGuest = visitor.body.access_token as string;
  const world: ChatWorld = {
    ids,
    tokens,
    positionOf: new Map(Object.entries(ids).map(([p, id]) => [id, p as ChatPosition])),
    main: undefined as unknown as ChannelFixture,
    pair: { cid: '' },
    cids: new Set(),
    team,
    word: `zebra${rand().replace(/[^a-z]/g, '')}fish`,
  };
  world.main = await buildChannel(server, world);
  // Product chats are created by the product (the server): users may not create `messaging` channels (issue 13 §2).
  const pair = await api.getOrCreateChannel(
    'messaging',
    undefined,
    { members: [ids.owner, ids.member], team },
    ids.owner,
  );
  world.pair.cid = pair.cid;
  return world;
}

/**
 * A `messaging` channel of the organization with every position in place: owner, moderator, member, client and
 * guest as members; a pending and a rejected invitee; a member who replied in a thread and was removed; a member
 * who replied and was banned (with SQL: no endpoint sets `banned` yet). The others have no member row.
 */
export async function buildChannel(server: TestServer, world: ChatWorld): Promise<ChannelFixture> {
  const api = server.app.chat.server;
  const { ids } = world;
  const id = `authz-${rand()}`;
  const cid = `messaging:${id}`;
  world.cids.add(cid);
  await world.onBuild?.mark(cid, 'start');
  await api.getOrCreateChannel(
    'messaging',
    id,
    {
      members: [
        ids.owner,
        ids.moderator,
        ids.member,
        ids.client,
        ids.guest,
        ids.removedMember,
        ids.bannedMember,
      ],
      team: world.team,
    },
    ids.owner,
  );
  await api.addModerators(cid, [ids.moderator]);
  const parent = await api.sendMessage(cid, ids.member, { text: `the ${world.word} parent` });
  const replies: string[] = [];
  for (const who of [ids.removedMember, ids.bannedMember]) {
    // Only the main channel's thread has replies (the threads list is a page: fresh channels would push it out).
    const reply = await api.sendMessage(cid, who, {
      text: `a ${world.word} reply`,
      ...(world.main ? {} : { parent_id: parent.id }),
    });
    replies.push(reply.id);
  }
  await api.removeMembers(cid, [ids.removedMember]);
  await world.onBuild?.mark(cid, 'removed');
  await server.db.query('UPDATE chat_members SET banned = true WHERE cid = $1 AND user_id = $2', [
    cid,
    ids.bannedMember,
  ]);
  await world.onBuild?.mark(cid, 'banned');
  // Invites are the product's to make (update-channel-members is denied on messaging, issue 13 §2), and the product
  // makes none: the invitee positions are set up with SQL, as an installation without the product's rules has them.
  await server.db.query(
    `INSERT INTO chat_members (cid, user_id, channel_role, invited, unread_seq)
     SELECT $1, u, 'channel_member', true, (SELECT unread_seq FROM chat_channels WHERE cid = $1)
       FROM unnest($2::text[]) AS u`,
    [cid, [ids.pendingInvitee, ids.rejectedInvitee]],
  );
  await ok(
    chatCall(server, 'POST', `/channels/messaging/${id}`, {
      token: world.tokens.rejectedInvitee,
      body: { reject_invite: true },
    }),
    'reject',
  );
  const last = await api.sendMessage(cid, ids.owner, { text: `the ${world.word} last word` });

  return {
    type: 'messaging',
    id,
    cid,
    parentId: parent.id,
    lastId: last.id,
    removedReplyId: replies[0] ?? '',
  };
}

/** A message by `author` in the channel, written straight into the table (an old message of theirs). */
export async function messageBy(
  server: TestServer,
  cid: string,
  author: string,
  text = 'mine',
): Promise<string> {
  const id = `az-msg-${crypto.randomUUID()}`;
  // The message takes its channel's next seq, as every write does (migration 0018).
  await server.db.query(
    `WITH c AS (UPDATE chat_channels SET last_seq = last_seq + 1 WHERE cid = $2 RETURNING last_seq)
     INSERT INTO chat_messages (id, seq, cid, user_id, text) SELECT $1, c.last_seq, $2, $3, $4 FROM c`,
    [id, cid, author, text],
  );
  return id;
}
