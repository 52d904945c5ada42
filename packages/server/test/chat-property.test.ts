import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, openSocket, type ChatSocket, type ChatUserClient, type Frame } from './chat-support.js';

/**
 * Property: whatever the interleaving of sends, resends (same id), edits, deletes and reconnects by three socket
 * clients, every client that applies its event stream (socket, plus POST /sync after a reconnect) ends with the
 * same ordered messages as a fresh query, without duplicates.
 */
type Op =
  | { kind: 'send'; who: number; id: number }
  | { kind: 'edit'; who: number; id: number; text: string }
  | { kind: 'delete'; who: number; id: number }
  | { kind: 'reconnect'; who: number };

type Msg = { id: string; text: string; type: string; created_at: string };

let server: TestServer;
let users: ChatUserClient[];

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  users = [await chatUser(server, 'p0'), await chatUser(server, 'p1'), await chatUser(server, 'p2')];
  for (const endpoint of ['SendMessage', 'default', 'QueryChannels', 'Sync']) {
    server.app.chat.rateLimits.configure(endpoint, { points: 1_000_000, duration: 60 });
  }
});

afterAll(async () => {
  await server?.close();
});

/** A client: its socket and the messages it built from the events it applied. */
class Client {
  socket!: ChatSocket;
  seen = 0;
  lastEventAt = new Date();
  readonly messages = new Map<string, Msg>();

  constructor(
    readonly user: ChatUserClient,
    readonly cid: string,
  ) {}

  async connect(): Promise<void> {
    this.socket = await openSocket(server, { token: this.user.token });
    this.seen = 0;
    this.online = true;
  }

  /** Applies an event idempotently (a message event for a known id replaces it). */
  apply(e: Frame): void {
    if (e.cid !== this.cid) return;
    const at = new Date(String(e.created_at));
    if (at > this.lastEventAt) this.lastEventAt = at;
    if (!['message.new', 'message.updated', 'message.deleted'].includes(e.type)) return;
    const m = e.message as Msg;
    if (e.type !== 'message.new' && !this.messages.has(m.id)) return;
    this.messages.set(m.id, { id: m.id, text: m.text, type: m.type, created_at: m.created_at });
  }

  drain(): void {
    const frames = this.socket.frames;
    for (; this.seen < frames.length; this.seen++) this.apply(frames[this.seen] as Frame);
  }

  online = false;

  /** Goes away: events sent meanwhile reach this client only through sync. */
  async disconnect(): Promise<void> {
    this.drain();
    await this.socket.close();
    this.online = false;
  }

  async reconnect(): Promise<void> {
    await this.connect();
    // Anything missed while away: events since a little before the last one seen (duplicates are harmless).
    const since = new Date(this.lastEventAt.getTime() - 1000).toISOString();
    const res = await this.user.call('POST', '/sync', { channel_cids: [this.cid], last_sync_at: since });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const e of res.body.events as Frame[]) this.apply(e);
  }

  ordered(): Msg[] {
    this.drain();
    return [...this.messages.values()].sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
    );
  }
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), who: fc.nat(2), id: fc.nat(5) }),
  fc.record({
    kind: fc.constant('edit' as const),
    who: fc.nat(2),
    id: fc.nat(5),
    text: fc.string({ maxLength: 8 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), who: fc.nat(2), id: fc.nat(5) }),
  fc.record({ kind: fc.constant('reconnect' as const), who: fc.nat(2) }),
);

let run = 0;

describe('event streams converge (fast-check)', () => {
  it('send / resend / edit / delete / disconnect-reconnect by 3 clients: same ordered messages, no duplicates', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 16 }), async (ops) => {
        const channel = `prop-${++run}`;
        const cid = `messaging:${channel}`;
        await users[0]!.call('POST', `/channels/messaging/${channel}/query`, {
          data: { members: users.map((u) => u.id) },
        });
        const clients = users.map((u) => new Client(u, cid));
        for (const c of clients) await c.connect();
        const sent = new Map<string, string>();
        for (const op of ops) {
          const c = clients[op.who]!;
          const id = `${channel}-m${'id' in op ? op.id : 0}`;
          if (op.kind === 'send') {
            const res = await c.user.call('POST', `/channels/messaging/${channel}/message`, {
              message: { id, text: `from ${c.user.id}` },
            });
            // A resend answers "already exists" (code 4) and changes nothing.
            if (sent.has(id)) expect(res.body).toMatchObject({ code: 4 });
            else {
              expect(res.status).toBe(200);
              sent.set(id, c.user.id);
            }
          } else if (op.kind === 'edit' && sent.get(id) === c.user.id) {
            await c.user.call('PUT', `/messages/${id}`, { set: { text: op.text || 'edited' } });
          } else if (op.kind === 'delete' && sent.get(id) === c.user.id) {
            await c.user.call('DELETE', `/messages/${id}`);
          } else if (op.kind === 'reconnect') {
            // Toggles: a connected client drops its socket, a disconnected one reconnects and syncs.
            if (c.online) await c.disconnect();
            else await c.reconnect();
          }
        }
        for (const c of clients) if (!c.online) await c.reconnect();
        const fresh = await users[0]!.call('POST', `/channels/messaging/${channel}/query`, {
          messages: { limit: 100 },
        });
        const expected = (fresh.body.messages as Msg[]).map(({ id, text, type, created_at }) => ({
          id,
          text,
          type,
          created_at,
        }));
        for (const c of clients) {
          const deadline = Date.now() + 3000;
          while (JSON.stringify(c.ordered()) !== JSON.stringify(expected) && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 20));
          }
          const got = c.ordered();
          expect(got).toEqual(expected);
          expect(new Set(got.map((m) => m.id)).size).toBe(got.length);
          await c.socket.close();
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
