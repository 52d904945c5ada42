import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoNodes, type TestServer, type TwoNodes } from './helpers/server.js';
import { RELAY_GRACE_MS } from '../src/chat/realtime/relay.js';
import { chatUser, openSocket, type ChatUserClient, type Frame } from './chat-support.js';

/**
 * The event stream (issue 13 §4): a per-channel `seq` on every channel event, consecutive under concurrent
 * senders on two nodes and equal to the messages' order; events committed but never published reach sockets
 * through the relay; `POST /chat/sync` by cursor returns only what the reader may read now.
 */
let nodes: TwoNodes | undefined;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  // Users create and fill their channels here (the product's rules on `messaging` are tested with the product).
  nodes = await startTwoNodes(undefined, undefined, { productChatRules: false });
  ({ a, b } = nodes);
});

afterAll(() => nodes?.close());

type Msg = { id: string; seq?: number; text: string; type: string; user_id?: string };
type Ev = { type: string; cid?: string; seq?: number; message?: Msg };

async function channel(owner: ChatUserClient, id: string, members: string[]) {
  const res = await owner.call('POST', `/channels/messaging/${id}/query`, { data: { members } });
  expect(res.status).toBeLessThan(300);
}

const send = (u: ChatUserClient, cid: string, id: string, text: string) =>
  u.call<{ message: Msg }>('POST', `/channels/messaging/${cid.split(':')[1]}/message`, {
    message: { id, text },
  });

const sync = (u: ChatUserClient, body: unknown) =>
  u.call<{
    events: Ev[];
    more?: boolean;
    cursor: { channels: Record<string, number>; notifications: number };
  }>('POST', '/sync', body);

describe('seq', () => {
  it('numbers channel events consecutively under concurrent senders on two nodes, in the order of the pages', async () => {
    const onA = await chatUser(a, 'seq-ana', 'Ana');
    const onB = await chatUser(b, 'seq-ben', 'Ben');
    await channel(onA, 'seq-race', ['seq-ana', 'seq-ben']);
    const watcher = await openSocket(b, { token: onB.token });
    const n = 15;
    const sends = [];
    for (let i = 0; i < n; i++) {
      sends.push(send(onA, 'messaging:seq-race', `ra-${i}`, `from A ${i}`));
      sends.push(send(onB, 'messaging:seq-race', `rb-${i}`, `from B ${i}`));
    }
    const answers = await Promise.all(sends);
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const seqs = answers.map((r) => r.body.message.seq).sort((x, y) => Number(x) - Number(y));
    const first = seqs[0] ?? 0;
    expect(seqs).toEqual(Array.from({ length: 2 * n }, (_, i) => first + i));

    // The watcher's message.new events carry the same numbers, each the seq of its message.
    const live: Frame[] = [];
    for (let i = 0; i < 2 * n; i++) live.push(await watcher.next('message.new'));
    for (const e of live) expect(e.seq).toBe((e.message as Msg).seq);
    expect(live.map((e) => e.seq).sort((x, y) => Number(x) - Number(y))).toEqual(seqs);

    // The server's page is in seq order: every reader shows this order.
    const page = await onB.call<{ messages: Msg[] }>('POST', '/channels/messaging/seq-race/query', {
      messages: { limit: 100 },
    });
    expect(page.body.messages.map((m) => m.seq)).toEqual(seqs);

    // The event table holds a reference per message event, never a copy of the message (stored once).
    const stored = await a.db.query<{ message_id: string | null; payload: string }>(
      `SELECT message_id, payload::text AS payload FROM chat_events WHERE cid = 'messaging:seq-race' AND type = 'message.new'`,
    );
    expect(stored.rows).toHaveLength(2 * n);
    expect(stored.rows.every((r) => r.message_id !== null && !r.payload.includes('from '))).toBe(true);
    await watcher.close();
  });
});

describe('seq under mixed writes', () => {
  it('keeps the numbers consecutive when sends, reads, reactions, edits and replies race (no deadlock, no 500)', async () => {
    const ana = await chatUser(a, 'mix-ana', 'Ana');
    const ben = await chatUser(b, 'mix-ben', 'Ben');
    await channel(ana, 'mix', ['mix-ana', 'mix-ben']);
    const cid = 'messaging:mix';
    const base = await send(ana, cid, 'mix-0', 'first');
    const ops: Array<Promise<{ status: number }>> = [];
    for (let i = 1; i <= 6; i++) {
      ops.push(send(ana, cid, `mix-a${i}`, `a${i}`));
      ops.push(send(ben, cid, `mix-b${i}`, `b${i}`));
      ops.push(ben.call('POST', '/channels/messaging/mix/read', {}));
      ops.push(ana.call('POST', '/channels/read', {}));
      ops.push(ben.call('POST', '/messages/mix-0/reaction', { reaction: { type: `r${i}` } }));
      ops.push(ana.call('POST', '/messages/mix-0', { message: { text: `first, edit ${i}` } }));
      ops.push(
        ben.call('POST', '/channels/messaging/mix/message', {
          message: { id: `mix-r${i}`, text: `reply ${i}`, parent_id: 'mix-0' },
        }),
      );
    }
    const answers = await Promise.all(ops);
    expect(answers.map((r) => r.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
    const { rows } = await a.db.query<{ seq: number }>(
      'SELECT seq FROM chat_events WHERE cid = $1 AND seq > $2 ORDER BY seq',
      [cid, base.body.message.seq],
    );
    const seqs = rows.map((r) => Number(r.seq));
    const first = Number(base.body.message.seq) + 1;
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => first + i));
    const last = await a.db.query<{ last_seq: number }>('SELECT last_seq FROM chat_channels WHERE cid = $1', [
      cid,
    ]);
    expect(Number(last.rows[0]?.last_seq)).toBe(seqs.at(-1));
  });
});

describe('relay', () => {
  it('delivers events committed but never published (a node dying between commit and publish)', async () => {
    const onA = await chatUser(a, 'relay-ana', 'Ana');
    const onB = await chatUser(b, 'relay-ben', 'Ben');
    await channel(onA, 'relay', ['relay-ana', 'relay-ben']);
    const onNodeB = await openSocket(b, { token: onB.token });
    const onNodeA = await openSocket(a, { token: onA.token });
    a.app.chat.realtime.dropPublishes = true;
    try {
      const sent = await send(onA, 'messaging:relay', 'lost-on-bus', 'committed, never published');
      expect(sent.status).toBe(200);
      // Both nodes' relays find it in chat_events and deliver it to their own sockets, once each.
      const onBEvent = await onNodeB.next('message.new', 10_000);
      expect(onBEvent).toMatchObject({ seq: sent.body.message.seq, message: { id: 'lost-on-bus' } });
      const onAEvent = await onNodeA.next('message.new', 10_000);
      expect(onAEvent).toMatchObject({ seq: sent.body.message.seq, message: { id: 'lost-on-bus' } });
    } finally {
      a.app.chat.realtime.dropPublishes = false;
    }
    // Published events are not delivered a second time by the relay: once the relay has looked at the event (past
    // its margin), each socket still holds one copy of each message.
    await send(onA, 'messaging:relay', 'on-bus', 'published');
    expect(await onNodeB.next('message.new')).toMatchObject({ message: { id: 'on-bus' } });
    await new Promise((resolve) => setTimeout(resolve, RELAY_GRACE_MS + 1500));
    await b.app.chat.relay.tick();
    const copies = (id: string) =>
      onNodeB.frames.filter((f) => f.type === 'message.new' && (f.message as Msg).id === id).length;
    expect([copies('lost-on-bus'), copies('on-bus')]).toEqual([1, 1]);
    await Promise.all([onNodeA.close(), onNodeB.close()]);
  });
});

describe('sync by cursor', () => {
  it('gives each message as it is now: nothing deleted, hard-deleted, hidden or truncated comes back', async () => {
    const maria = await chatUser(a, 'gone-maria');
    const noah = await chatUser(a, 'gone-noah');
    await channel(maria, 'gone', ['gone-maria', 'gone-noah']);
    const cid = 'messaging:gone';
    const start = await sync(noah, { channel_cids: [cid], cursor: { channels: {} } });
    const from = start.body.cursor.channels[cid] ?? -1;
    expect(from).toBeGreaterThanOrEqual(0);
    const since = new Date(Date.now() - 1000).toISOString();
    await send(maria, cid, 'g-soft', 'secret soft');
    await send(maria, cid, 'g-hard', 'secret hard');
    await send(maria, cid, 'g-mine', 'secret for me');
    await send(maria, cid, 'g-kept', 'kept');
    await maria.call('DELETE', '/messages/g-soft');
    await maria.call('DELETE', '/messages/g-hard', undefined, { hard: 'true' });
    await noah.call('DELETE', '/messages/g-mine', undefined, { delete_for_me: 'true' });
    const res = await sync(noah, { channel_cids: [cid], cursor: { channels: { [cid]: from } } });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body.events);
    expect(text).not.toContain('secret');
    // The spec's clients (last_sync_at) get the same view.
    const bySince = await sync(noah, { channel_cids: [cid], last_sync_at: since });
    expect(JSON.stringify(bySince.body.events)).not.toContain('secret');
    expect(JSON.stringify(bySince.body.events)).toContain('kept');
    expect(text).toContain('kept');
    const seqs = res.body.events.filter((e) => e.cid === cid).map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => Number(x) - Number(y)));
    expect(res.body.cursor.channels[cid]).toBeGreaterThanOrEqual(Number(seqs.at(-1)));

    await maria.call('POST', '/channels/messaging/gone/truncate', {});
    const after = await sync(noah, { channel_cids: [cid], cursor: { channels: { [cid]: from } } });
    const afterText = JSON.stringify(after.body.events);
    expect(afterText).not.toContain('kept');
    expect(after.body.events.map((e) => e.type)).toContain('channel.truncated');
  });

  it('gives a pending invitee nothing, and a member nothing from before they joined', async () => {
    const maria = await chatUser(a, 'join-maria');
    const chloe = await chatUser(a, 'join-chloe');
    const eve = await chatUser(a, 'join-eve');
    await channel(maria, 'join', ['join-maria']);
    const cid = 'messaging:join';
    const since = new Date(Date.now() - 60_000).toISOString();
    await send(maria, cid, 'before-1', 'before chloe joined');
    expect((await maria.call('POST', '/channels/messaging/join', { invites: ['join-eve'] })).status).toBe(
      200,
    );
    await send(maria, cid, 'before-2', 'while eve is invited');
    const pending = await sync(eve, { channel_cids: [cid], last_sync_at: since });
    // Their own notification of the invite, and nothing of the channel's stream.
    expect(pending.body.events.map((e) => e.type)).toEqual(['notification.invited']);
    expect(JSON.stringify(pending.body.events)).not.toContain('before');
    const pendingByCursor = await sync(eve, { channel_cids: [cid], cursor: { channels: { [cid]: 0 } } });
    expect(pendingByCursor.body.events).toEqual([]);
    expect(pendingByCursor.body.cursor.channels[cid]).toBeUndefined();

    expect(
      (await maria.call('POST', '/channels/messaging/join', { add_members: ['join-chloe'] })).status,
    ).toBe(200);
    await send(maria, cid, 'after-1', 'after chloe joined');
    for (const body of [
      { channel_cids: [cid], last_sync_at: since },
      { channel_cids: [cid], cursor: { channels: { [cid]: 0 } } },
    ]) {
      const res = await sync(chloe, body);
      const ids = res.body.events.flatMap((e) => (e.message ? [e.message.id] : []));
      expect(ids).toEqual(['after-1']);
      expect(JSON.stringify(res.body.events)).not.toContain('before');
    }
  });

  it('stale state plus the events since its seq equals a fresh query', async () => {
    const maria = await chatUser(a, 'fresh-maria');
    const noah = await chatUser(a, 'fresh-noah');
    await channel(maria, 'fresh', ['fresh-maria', 'fresh-noah']);
    const cid = 'messaging:fresh';
    await send(maria, cid, 'f1', 'one');
    await send(noah, cid, 'f2', 'two');
    const stale = await noah.call<{ channel: { last_seq: number }; messages: Msg[] }>(
      'POST',
      '/channels/messaging/fresh/query',
      { messages: { limit: 100 } },
    );
    await send(maria, cid, 'f3', 'three');
    await maria.call('POST', '/messages/f1', { message: { text: 'one, edited' } });
    await noah.call('POST', '/messages/f3/reaction', { reaction: { type: 'like' } });
    await maria.call('DELETE', '/messages/f2', undefined, { hard: 'true' });
    await send(noah, cid, 'f4', 'four');
    const res = await sync(noah, {
      channel_cids: [cid],
      cursor: { channels: { [cid]: stale.body.channel.last_seq } },
    });
    const list = new Map(stale.body.messages.map((m) => [m.id, m]));
    for (const e of res.body.events) {
      if (!e.message) continue;
      if (e.type === 'message.deleted' && e.message.seq === undefined) list.delete(e.message.id);
      else list.set(e.message.id, e.message);
    }
    const fresh = await noah.call<{ messages: Msg[] }>('POST', '/channels/messaging/fresh/query', {
      messages: { limit: 100 },
    });
    const view = (m: Msg) => ({ id: m.id, seq: m.seq, text: m.text, type: m.type });
    const applied = [...list.values()].sort((x, y) => Number(x.seq) - Number(y.seq)).map(view);
    expect(applied).toEqual(fresh.body.messages.map(view));
  });

  it('caps the answer, says more, and continues from its cursor', async () => {
    const maria = await chatUser(a, 'cap-maria');
    await channel(maria, 'cap', ['cap-maria']);
    const cid = 'messaging:cap';
    const start = await sync(maria, { channel_cids: [cid], cursor: { channels: {} } });
    const from = start.body.cursor.channels[cid] ?? 0;
    for (let i = 0; i < 5; i++) await send(maria, cid, `cap-${i}`, `m${i}`);
    const all = await sync(maria, { channel_cids: [cid], cursor: { channels: { [cid]: from } } });
    expect(all.body.more).toBe(false);
    expect(all.body.events.map((e) => e.message?.id)).toEqual(['cap-0', 'cap-1', 'cap-2', 'cap-3', 'cap-4']);
    const rest = await sync(maria, { channel_cids: [cid], cursor: { channels: { [cid]: from + 3 } } });
    expect(rest.body.events.map((e) => e.message?.id)).toEqual(['cap-3', 'cap-4']);

    // Past the cap (1,000 channel events per answer): `more`, and the cursor continues where the answer stopped.
    const top = from + 5;
    await a.db.query(
      `INSERT INTO chat_events (cid, seq, type, payload, created_at)
       SELECT $1, $2::bigint + g, 'channel.updated', '{}'::jsonb, now() FROM generate_series(1, 1005) g`,
      [cid, top],
    );
    await a.db.query('UPDATE chat_channels SET last_seq = $2 WHERE cid = $1', [cid, top + 1005]);
    const first = await sync(maria, { channel_cids: [cid], cursor: { channels: { [cid]: top } } });
    expect(first.body.more).toBe(true);
    expect(first.body.events).toHaveLength(1000);
    expect(first.body.cursor.channels[cid]).toBe(top + 1000);
    const second = await sync(maria, { channel_cids: [cid], cursor: first.body.cursor });
    expect(second.body.more).toBe(false);
    expect(second.body.events.map((e) => e.seq)).toEqual([1001, 1002, 1003, 1004, 1005].map((k) => top + k));
    expect(second.body.cursor.channels[cid]).toBe(top + 1005);
  });
});

describe('pruning', () => {
  it('drops events past the 30-day retention on schedule (injected clock), once per interval', async () => {
    const maria = await chatUser(a, 'prune-maria');
    await channel(maria, 'prune', ['prune-maria']);
    await send(maria, 'messaging:prune', 'p-1', 'recent');
    await a.db.query(
      `UPDATE chat_events SET created_at = now() - interval '31 days'
        WHERE id = (SELECT min(id) FROM chat_events WHERE cid = 'messaging:prune')`,
    );
    const count = async () =>
      Number(
        (
          await a.db.query<{ n: string }>(
            `SELECT count(*) AS n FROM chat_events WHERE cid = 'messaging:prune'`,
          )
        ).rows[0]?.n,
      );
    const before = await count();
    const jobs = a.app.chat.jobs;
    const realClock = jobs.clock;
    try {
      let now = new Date(Date.now() + 2 * 60 * 60 * 1000);
      jobs.clock = () => now;
      expect(await jobs.tick()).toContain('prune-events');
      expect(await count()).toBe(before - 1);
      // Not due again until its interval passed.
      await a.db.query(
        `UPDATE chat_events SET created_at = now() - interval '31 days' WHERE cid = 'messaging:prune'`,
      );
      expect(await jobs.tick()).not.toContain('prune-events');
      expect(await count()).toBe(before - 1);
      now = new Date(now.getTime() + 61 * 60 * 1000);
      expect(await jobs.tick()).toContain('prune-events');
      expect(await count()).toBe(0);
    } finally {
      jobs.clock = realClock;
    }
  });
});
