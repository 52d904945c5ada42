import crypto from 'node:crypto';
import { CHAT_ENDPOINTS, ChatEvent } from '@caseroom/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_ENDPOINT_RULES,
  CHAT_EVENT_AUDIENCE,
  CHAT_POSITIONS,
  READERS,
  type ChatPosition,
} from '../src/chat/policy/matrix.js';
import { signChatToken } from '../src/chat/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildChatWorld, callAs, type ChatWorld } from './chat-authz-fixtures.js';
import { CHAT_RUNNERS } from './chat-authz-cases.js';
import { chatCall, openSocket, type ChatSocket, type Frame } from './chat-support.js';

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
/** The custom event type of {@link barrier} (sent by the server to one user: no channel data). */
const BARRIER = 'authz.barrier';

export function leakOf(
  f: Frame,
  who: ChatPosition,
  world: ChatWorld,
  duringBuild: (cid: string) => boolean,
): string | undefined {
  if (f.type === BARRIER) return undefined;
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
    /**
     * Per channel built during the run: each socket's frame count when its building started, and the removed and
     * banned members' counts once they were removed or banned (until then they were members).
     */
    const builds = new Map<string, { start: Map<ChatPosition, number>; end: Map<ChatPosition, number> }>();
    let serverToken = '';

    /** Waits until `who`'s socket got every frame sent to it so far (a custom event sent now arrived). */
    async function barrier(who: Exclude<ChatPosition, 'anonymous'>): Promise<number> {
      const socket = sockets.get(who);
      if (!socket) return 0;
      const nonce = crypto.randomUUID();
      await chatCall(server, 'POST', `/users/${world.ids[who]}/event`, {
        token: serverToken,
        body: { event: { type: BARRIER, nonce } },
      });
      let f = await socket.next(BARRIER);
      while (f.nonce !== nonce) f = await socket.next(BARRIER);
      return socket.frames.indexOf(f);
    }
    const counts = () => new Map([...sockets].map(([p, s]) => [p, s.frames.length]));

    beforeAll(async () => {
      server = await startTestServer({ database: backend });
      world = await buildChatWorld(server);
      serverToken = await signChatToken(server.config, { server: true });
      world.onBuild = {
        async mark(cid, step) {
          if (step === 'start') {
            builds.set(cid, { start: counts(), end: new Map() });
            return;
          }
          const who = step === 'removed' ? 'removedMember' : 'bannedMember';
          builds.get(cid)?.end.set(who, await barrier(who));
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
        world.writes = allowed ? undefined : { position: who, changed: [] };
        const out = await run(server, world, who, allowed);
        const changed = world.writes?.changed ?? [];
        world.writes = undefined;
        want[who] = allowed
          ? rule.sees
            ? `2xx ${rule.sees.includes(who) ? 'sees' : 'sees nothing'}`
            : '2xx'
          : 'refused';
        if (out.status < 300) got[who] = rule.sees ? `2xx ${out.sawIt ? 'sees' : 'sees nothing'}` : '2xx';
        else got[who] = out.status >= 400 && out.status < 500 ? 'refused' : `status ${out.status}`;
        if (changed.length > 0) got[who] = `${got[who]} but wrote (${changed.join(', ')})`;
      }
      const wrong = Object.fromEntries(
        CHAT_POSITIONS.filter((p) => got[p] !== want[p]).map((p) => [p, `${got[p]}, want ${want[p]}`]),
      );
      expect(wrong).toEqual({});
    });

    it('sends no event to a position that may not read the channel', async () => {
      // The user.updated of a member (POST /chat/users as member) reached every reader.
      for (const who of READERS) {
        const frames = sockets.get(who)?.frames ?? [];
        const updated = frames.filter(
          (x) => x.type === 'user.updated' && (x.user as { id: string }).id === world.ids.member,
        );
        expect(updated.length, who).toBeGreaterThan(0);
      }
      // Every reader got the channel's messages (the check below is not vacuous).
      for (const who of READERS) {
        const frames = sockets.get(who)?.frames ?? [];
        expect(frames.some((f) => f.type === 'message.new' && f.cid === world.main.cid)).toBe(true);
      }
      // Every channel event type a reader got about the matrix's channels, every reader got: the allow cells.
      const got = (who: ChatPosition) =>
        new Set(
          (sockets.get(who)?.frames ?? [])
            .filter((f) => CHAT_EVENT_AUDIENCE[f.type] === 'readers' && world.cids.has(cidOf(f) ?? ''))
            .map((f) => f.type),
        );
      const seen = new Set(READERS.flatMap((who) => [...got(who)]));
      expect(seen.size).toBeGreaterThanOrEqual(10);
      // eslint-disable-next-line no-console -- what the allow cells covered is part of the report
      console.info(`chat matrix (${backend}): every reader got ${[...seen].sort().join(', ')}`);
      for (const who of READERS) expect([...got(who)].sort(), who).toEqual([...seen].sort());
      const leaks: string[] = [];
      for (const [who, socket] of sockets) {
        socket.frames.forEach((f, i) => {
          const duringBuild = (cid: string) => {
            const b = builds.get(cid);
            return !!b && i >= (b.start.get(who) ?? 0) && i < (b.end.get(who) ?? 0);
          };
          const leak = leakOf(f, who, world, duringBuild);
          if (leak) leaks.push(leak);
        });
      }
      expect(leaks).toEqual([]);
    });
  });
}
