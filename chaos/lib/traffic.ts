import { API_KEY, signToken, sleep } from './cluster.js';

/** Senders and the server's own pages of a channel, over plain HTTP (as any client of the chat API). */

export interface SendRecord {
  id: string;
  channel: string;
  sender: string;
  /** Balancer (home node) the send went through. */
  home: number;
  startedAt: number;
  endedAt: number;
  /** HTTP status, or `error` (connection failed or cut) or `timeout`. */
  outcome: number | 'error' | 'timeout';
}

export const acknowledged = (r: SendRecord) => r.outcome === 201 || r.outcome === 200;

const SEND_TIMEOUT_MS = 10_000;

async function chatRequest(
  port: number,
  route: string,
  user: string,
  body: unknown,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}/chat${route}?api_key=${API_KEY}`, {
    method: 'POST',
    headers: {
      authorization: signToken({ user_id: user }),
      'auth-type': 'jwt',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body: parsed };
}

/** Sends one message with a fresh id through `port`; never throws, always records the outcome. */
export async function sendOnce(
  port: number,
  home: number,
  channel: string,
  sender: string,
  id: string,
): Promise<SendRecord> {
  const startedAt = Date.now();
  let outcome: SendRecord['outcome'];
  try {
    outcome = (
      await chatRequest(port, `/channels/messaging/${channel}/message`, sender, {
        message: { id, text: `${id} from ${sender}` },
      })
    ).status;
  } catch (err) {
    outcome = (err as Error).name === 'TimeoutError' ? 'timeout' : 'error';
  }
  return { id, channel, sender, home, startedAt, endedAt: Date.now(), outcome };
}

export interface SenderSpec {
  user: string;
  channel: string;
  home: number;
  port: number;
}

/**
 * Each sender sends `rate` messages a second (open loop: due times do not wait for answers, at most 8 in flight per
 * sender) until `stop()`, which waits for every answer.
 */
export class Load {
  readonly records: SendRecord[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(senders: SenderSpec[], rate: number) {
    this.loops = senders.map((s) => this.loop(s, rate));
  }

  private async loop(s: SenderSpec, rate: number): Promise<void> {
    const interval = 1000 / rate;
    const start = Date.now() + Math.random() * interval;
    const inFlight = new Set<Promise<void>>();
    for (let k = 0; this.running; k++) {
      const wait = start + k * interval - Date.now();
      if (wait > 0) await sleep(wait);
      while (inFlight.size >= 8) await Promise.race(inFlight);
      if (!this.running) break;
      const p = sendOnce(s.port, s.home, s.channel, s.user, `${s.user}-${k}`).then((r) => {
        this.records.push(r);
        inFlight.delete(p);
      });
      inFlight.add(p);
    }
    await Promise.all(inFlight);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/**
 * The channel's messages as the server pages them (keyset pages of 300 from the newest back with `id_lt`), oldest
 * first: the server's order, the one every reader must show.
 */
export async function serverOrder(port: number, channel: string, reader: string): Promise<string[]> {
  const pages: string[][] = [];
  let before: string | undefined;
  for (;;) {
    const reply = await chatRequest(
      port,
      `/channels/messaging/${channel}/query`,
      reader,
      { state: true, messages: { limit: 300, ...(before ? { id_lt: before } : {}) } },
      30_000,
    );
    if (reply.status !== 201 && reply.status !== 200)
      throw new Error(`query ${channel}: HTTP ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
    const ids = ((reply.body as { messages?: { id: string }[] }).messages ?? []).map((m) => m.id);
    pages.unshift(ids);
    if (ids.length < 300) break;
    before = ids[0];
  }
  return pages.flat();
}

/** Server-side setup with a server token: users, and a channel with its members. */
export async function setupChannel(port: number, channel: string, members: string[]): Promise<void> {
  const server = async (route: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/chat${route}?api_key=${API_KEY}`, {
      method: 'POST',
      headers: {
        authorization: signToken({ server: true }),
        'auth-type': 'jwt',
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${route}: HTTP ${res.status} ${await res.text()}`);
  };
  await server('/users', { users: members.map((id) => ({ id, name: id })) });
  await server(`/channels/messaging/${channel}/query`, { data: { members }, state: false });
}
