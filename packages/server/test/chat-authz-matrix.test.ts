import { CHAT_ENDPOINTS, ChatEvent } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_ENDPOINT_RULES,
  CHAT_EVENT_AUDIENCE,
  CHAT_POSITIONS,
  READERS,
  type ChatPosition,
} from '../src/chat/policy/matrix.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildChatWorld, callAs, type ChatWorld } from './chat-authz-fixtures.js';
import { CHAT_RUNNERS } from './chat-authz-cases.js';
import { openSocket, type ChatSocket, type Frame } from './chat-support.js';

const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;
const ENDPOINT_KEYS = CHAT_ENDPOINTS.map(key);

/** Every event type the protocol declares (the `type` of each member of the `ChatEvent` union). */
export function eventTypes(): string[] {
  const out: string[] = [];
  for (const option of ChatEvent.options) {
    const t = option.shape.type as unknown as { options?: string[]; value?: string };
    if (t.options) out.push(...t.options);
    else if (t.value) out.push(t.value);
  }
  return out;
}

const isReader = (p: ChatPosition) => READERS.includes(p);

/** The channel a frame is about, if any. */
function cidOf(f: Frame): string | undefined {
  if (typeof f.cid === 'string') return f.cid;
  const channel = f.channel as { cid?: string } | undefined;
  return channel?.cid;
}

/** The user a frame is about (a member event's member, a user event's user). */
function subjectOf(f: Frame): string | undefined {
  const member = f.member as { user_id?: string } | undefined;
  const user = f.user as { id?: string } | undefined;
  return member?.user_id ?? (f.type.startsWith('user.') ? user?.id : undefined);
}

/** Why the frame may not reach `who` (undefined: it may). */
export function leakOf(
  f: Frame,
  who: ChatPosition,
  world: ChatWorld,
  duringBuild: (cid: string) => boolean,
): string | undefined {
  const audience = CHAT_EVENT_AUDIENCE[f.type];
  if (!audience) return `event type ${f.type} has no audience row`;
  if (audience === 'connection') return undefined;
  if (audience === 'never') return `${f.type} is never sent by the server`;
  const self = who === 'anonymous' ? undefined : world.ids[who];
  const cid = cidOf(f);
  const subject = subjectOf(f);
  const aboutTheChannel = cid !== undefined && world.cids.has(cid);
  const aboutAMember = subject !== undefined && world.positionOf.has(subject) && subject !== self;
  if (!aboutTheChannel && !aboutAMember) return undefined;
  if (isReader(who)) return undefined;
  // While a channel is built, its removed and banned members are still members (they write in it).
  if (aboutTheChannel && (who === 'removedMember' || who === 'bannedMember') && duringBuild(cid))
    return undefined;
  if (audience === 'readersAndSubject' && subject !== undefined && subject === self) return undefined;
  return `${f.type} about ${cid ?? subject} reached ${who}`;
}

for (const backend of ['postgres', 'pglite'] as const) {
  describe(`chat authorization matrix (${backend})`, () => {
    let server: TestServer;
    let world: ChatWorld;
    const sockets = new Map<ChatPosition, ChatSocket>();
    /** Per channel built during the run: each socket's frame count when its building started and ended. */
    const builds = new Map<
      string,
      { start: Map<ChatPosition, number>; end: Map<ChatPosition, number> | undefined }
    >();
    const counts = () => new Map([...sockets].map(([p, s]) => [p, s.frames.length]));

    beforeAll(async () => {
      server = await startTestServer({ database: backend });
      world = await buildChatWorld(server);
      world.onBuild = {
        start: (cid) => builds.set(cid, { start: counts(), end: undefined }),
        end: (cid) => {
          const b = builds.get(cid);
          if (b) b.end = counts();
        },
      };
      // A socket for every position, each trying to watch the channel with presence (readers only succeed).
      for (const who of CHAT_POSITIONS) {
        const socket = await openSocket(
          server,
          who === 'anonymous' ? { authType: 'anonymous' } : { token: world.tokens[who] },
        );
        sockets.set(who, socket);
        const connection = String(socket.first.connection_id);
        await callAs(server, world, who, 'POST', `/channels/messaging/${world.main.id}/query`, {
          body: { watch: true, presence: true },
          query: { connection_id: connection },
        });
        // Everyone may list their channels with presence: non-readers ask for presence events too.
        await callAs(server, world, who, 'POST', '/channels', {
          body: { filter_conditions: {}, watch: true, presence: true },
          query: { connection_id: connection },
        });
      }
    }, 120_000);
    afterAll(async () => {
      for (const s of sockets.values()) await s.close();
      await server?.close();
    });

    it('has a rule and a runner for every chat endpoint, and an audience for every event type', () => {
      expect(Object.keys(CHAT_ENDPOINT_RULES).sort()).toEqual([...ENDPOINT_KEYS].sort());
      expect(Object.keys(CHAT_RUNNERS).sort()).toEqual([...ENDPOINT_KEYS].sort());
      expect(Object.keys(CHAT_EVENT_AUDIENCE).sort()).toEqual(eventTypes().sort());
    });

    it.each(ENDPOINT_KEYS)('%s: allowed positions succeed, the others are refused', async (endpoint) => {
      const rule = CHAT_ENDPOINT_RULES[endpoint];
      const run = CHAT_RUNNERS[endpoint];
      if (!rule || !run) throw new Error(`no rule or runner for ${endpoint}`);
      const got: Record<string, string> = {};
      const want: Record<string, string> = {};
      for (const who of CHAT_POSITIONS) {
        const allowed = rule.allow.includes(who);
        const out = await run(server, world, who, allowed);
        want[who] = allowed
          ? rule.sees
            ? `2xx ${rule.sees.includes(who) ? 'sees' : 'sees nothing'}`
            : '2xx'
          : 'refused';
        if (out.status < 300) got[who] = rule.sees ? `2xx ${out.sawIt ? 'sees' : 'sees nothing'}` : '2xx';
        else got[who] = out.status >= 400 && out.status < 500 ? 'refused' : `status ${out.status}`;
      }
      const wrong = Object.fromEntries(
        CHAT_POSITIONS.filter((p) => got[p] !== want[p]).map((p) => [p, `${got[p]}, want ${want[p]}`]),
      );
      expect(wrong).toEqual({});
    });

    it('sends no event to a position that may not read the channel', async () => {
      // Every reader got the channel's messages (the check below is not vacuous).
      for (const who of READERS) {
        const frames = sockets.get(who)?.frames ?? [];
        expect(frames.some((f) => f.type === 'message.new' && f.cid === world.main.cid)).toBe(true);
      }
      const leaks: string[] = [];
      for (const [who, socket] of sockets) {
        socket.frames.forEach((f, i) => {
          const duringBuild = (cid: string) => {
            const b = builds.get(cid);
            return !!b && i >= (b.start.get(who) ?? 0) && i < (b.end?.get(who) ?? Infinity);
          };
          const leak = leakOf(f, who, world, duringBuild);
          if (leak) leaks.push(leak);
        });
      }
      expect(leaks).toEqual([]);
    });
  });
}
