import { expect } from 'vitest';
import { openSocket, type ChatSocket, type ChatUserClient, type Frame } from './chat-support.js';
import type { TestServer } from './helpers/server.js';

/**
 * "Stale state + the events since = a fresh query" (STYLE 6): a small reference reducer applies a client's received
 * events to the state it queried earlier; the result must equal what a fresh query answers.
 */

type Obj = Record<string, unknown>;

export interface ProofState {
  channel: Obj;
  members: Record<string, Obj>;
  messages: Array<{ id: string; text: string; type: string; reply_count: number }>;
  read: Record<string, ReadEntry>;
}

/** A read entry; the reducer also keeps the ids it knows to be unread (stripped before comparing). */
interface ReadEntry {
  last_read_message_id: string | null;
  unread_messages: number;
  unread_ids?: string[];
}

/** The channel fields a client keeps (custom fields included by name). */
const CHANNEL_FIELDS = ['name', 'frozen', 'hidden', 'cooldown', 'truncated_at', 'topic', 'own_capabilities'];
const MEMBER_FIELDS = ['channel_role', 'invited', 'invite_accepted_at', 'invite_rejected_at', 'banned'];

const pick = (o: Obj, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

const member = (m: Obj) => pick(m, MEMBER_FIELDS);
const message = (m: Obj) => ({
  id: String(m.id),
  text: String(m.text ?? ''),
  type: String(m.type),
  reply_count: Number(m.reply_count ?? 0),
});

/** The state of one channel as a fresh query answers it to this user. */
export async function queryState(
  user: ChatUserClient,
  cid: string,
  connectionId?: string,
): Promise<ProofState> {
  const [type, id] = cid.split(':');
  const res = await user.call<Obj>(
    'POST',
    `/channels/${type}/${id}/query`,
    { state: true, watch: connectionId !== undefined, messages: { limit: 100 }, members: { limit: 100 } },
    connectionId ? { connection_id: connectionId } : undefined,
  );
  expect(res.status).toBe(200);
  const channel = res.body.channel as Obj;
  const members = res.body.members as Obj[];
  const read = res.body.read as Array<Obj & { user: { id: string } }>;
  return {
    channel: { ...pick(channel, CHANNEL_FIELDS), member_count: channel.member_count },
    members: Object.fromEntries(members.map((m) => [String(m.user_id), member(m)])),
    messages: (res.body.messages as Obj[]).map(message),
    read: Object.fromEntries(
      read.map((r) => [
        r.user.id,
        {
          last_read_message_id: (r.last_read_message_id as string | undefined) ?? null,
          unread_messages: Number(r.unread_messages),
        },
      ]),
    ),
  };
}

/** The reference reducer: what a client does with each event of the channel. */
export function applyEvent(state: ProofState, e: Frame, viewerId: string): ProofState {
  const s: ProofState = structuredClone(state);
  switch (e.type) {
    case 'member.added':
    case 'member.updated': {
      const m = e.member as Obj;
      s.members[String(m.user_id)] = member(m);
      s.read[String(m.user_id)] ??= { last_read_message_id: null, unread_messages: 0 };
      break;
    }
    case 'member.removed':
      delete s.members[String((e.member as Obj | undefined)?.user_id ?? (e.user as Obj).id)];
      delete s.read[String((e.member as Obj | undefined)?.user_id ?? (e.user as Obj).id)];
      break;
    case 'channel.updated':
      Object.assign(
        s.channel,
        pick(
          e.channel as Obj,
          CHANNEL_FIELDS.filter((k) => k !== 'own_capabilities'),
        ),
      );
      for (const k of ['topic', 'truncated_at']) if ((e.channel as Obj)[k] === undefined) delete s.channel[k];
      break;
    case 'capabilities.changed':
      s.channel.own_capabilities = e.own_capabilities;
      break;
    case 'channel.hidden':
      s.channel.hidden = true;
      if (e.clear_history) s.messages = [];
      break;
    case 'channel.visible':
      s.channel.hidden = false;
      break;
    case 'channel.truncated':
      s.messages = [];
      s.channel.truncated_at = (e.channel as Obj).truncated_at;
      for (const r of Object.values(s.read)) r.unread_messages = 0;
      break;
    case 'message.new': {
      const m = e.message as Obj;
      const inMain = !m.parent_id || m.show_in_channel === true;
      if (inMain) s.messages.push(message(m));
      if (inMain && !m.silent) {
        for (const [userId, r] of Object.entries(s.read)) {
          if (userId === m.user_id) continue;
          r.unread_messages += 1;
          r.unread_ids = [...(r.unread_ids ?? []), String(m.id)];
        }
      }
      // Sending reads the channel up to one's own message.
      if (inMain && typeof m.user_id === 'string' && s.read[m.user_id]) {
        s.read[m.user_id] = { last_read_message_id: String(m.id), unread_messages: 0 };
      }
      break;
    }
    case 'message.updated':
    case 'message.deleted':
    case 'message.undeleted': {
      const m = message(e.message as Obj);
      s.messages = s.messages.map((x) => (x.id === m.id ? m : x));
      // A deleted message no longer counts as unread.
      if (m.type === 'deleted') {
        for (const r of Object.values(s.read)) {
          if (!r.unread_ids?.includes(m.id)) continue;
          r.unread_ids = r.unread_ids.filter((id) => id !== m.id);
          r.unread_messages -= 1;
        }
      }
      break;
    }
    case 'message.read': {
      if (e.thread_id) break;
      const userId = (e.user as Obj).id as string;
      s.read[userId] = {
        last_read_message_id: (e.last_read_message_id as string | undefined) ?? null,
        unread_messages: 0,
      };
      break;
    }
    case 'notification.mark_unread':
      s.read[viewerId] = {
        last_read_message_id: (e.last_read_message_id as string | undefined) ?? null,
        unread_messages: Number(e.unread_messages),
      };
      break;
    default:
      break;
  }
  // The count follows the member list.
  s.channel.member_count = Object.keys(s.members).length;
  return s;
}

/** A watching client: its socket, and the state it queried when it started. */
export interface ProofClient {
  socket: ChatSocket;
  stale: ProofState;
  /** Events received since the stale query, up to a sentinel custom event sent by `syncer` after the actions. */
  eventsSince(syncer: ChatUserClient): Promise<Frame[]>;
  /** Asserts stale + events = fresh query, and answers the fresh state. */
  prove(syncer: ChatUserClient): Promise<ProofState>;
}

export async function proofClient(
  server: TestServer,
  user: ChatUserClient,
  cid: string,
): Promise<ProofClient> {
  const socket = await openSocket(server, { token: user.token });
  const stale = await queryState(user, cid, String(socket.first.connection_id));
  const start = socket.frames.length;
  let sentinel = 0;
  const eventsSince = async (syncer: ChatUserClient) => {
    const [type, id] = cid.split(':');
    const tag = `proof-${++sentinel}`;
    const res = await syncer.call('POST', `/channels/${type}/${id}/event`, {
      event: { type: 'proof.sync', tag },
    });
    expect(res.status).toBe(200);
    for (;;) {
      const f = await socket.next('proof.sync');
      if (f.tag === tag) break;
    }
    return socket.frames.slice(start).filter((f) => f.cid === cid || f.type.startsWith('capabilities'));
  };
  return {
    socket,
    stale,
    eventsSince,
    async prove(syncer) {
      const events = await eventsSince(syncer);
      const replayed = events.reduce((s, e) => applyEvent(s, e, user.id), stale);
      for (const r of Object.values(replayed.read)) delete r.unread_ids;
      const fresh = await queryState(user, cid);
      expect(replayed).toEqual(fresh);
      return fresh;
    },
  };
}
