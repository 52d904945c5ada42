import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoNodes, type TestServer, type TwoNodes } from './helpers/server.js';
import { chatCall } from './chat-support.js';

/** Long-poll without sticky sessions: two nodes on one PostgreSQL and one Redis; polls alternate between them. */
let nodeA: TestServer;
let nodeB: TestServer;
let nodes: TwoNodes | undefined;

beforeAll(async () => {
  nodes = await startTwoNodes(undefined, undefined, { productChatRules: false });
  ({ a: nodeA, b: nodeB } = nodes);
});

afterAll(() => nodes?.close());

type Events = { events: Array<{ type: string; connection_id?: string; message?: { id: string } }> };

describe('long-poll across nodes', () => {
  it('opens on node A, polls on node B and A in turn, and gets every event in order', async () => {
    await nodeA.app.chat.server.upsertUsers([{ id: 'maria' }, { id: 'noah' }]);
    await nodeA.app.chat.server.getOrCreateChannel(
      'messaging',
      'lp',
      { members: ['maria', 'noah'] },
      'maria',
    );
    const noahToken = await nodeA.app.chat.server.createToken('noah');
    const poll = (node: TestServer, query: Record<string, string> = {}) =>
      chatCall<Events>(node, 'GET', '/longpoll', { token: noahToken, query });

    const opened = await poll(nodeA);
    expect(opened.body.events[0]).toMatchObject({ type: 'health.check' });
    const connectionId = String(opened.body.events[0]?.connection_id);
    const watch = await chatCall(nodeB, 'POST', '/channels/messaging/lp/query', {
      token: noahToken,
      body: { watch: true },
      query: { connection_id: connectionId },
    });
    expect(watch.status).toBe(200);

    // A poll waiting on node B is woken by a message sent through node A.
    const waiting = poll(nodeB, { connection_id: connectionId, timeout: '5000' });
    await new Promise((r) => setTimeout(r, 200));
    await nodeA.app.chat.server.sendMessage('messaging:lp', 'maria', { id: 'lp-1', text: 'one' });
    const first = await waiting;
    expect(first.status).toBe(200);
    const collected = [...first.body.events];

    // Two more while nobody polls; the next poll, on node A this time, takes them in order.
    await nodeB.app.chat.server.sendMessage('messaging:lp', 'maria', { id: 'lp-2', text: 'two' });
    await nodeA.app.chat.server.sendMessage('messaging:lp', 'maria', { id: 'lp-3', text: 'three' });
    for (let i = 0; i < 10 && collected.filter((e) => e.type === 'message.new').length < 3; i++) {
      const node = i % 2 === 0 ? nodeA : nodeB;
      collected.push(...(await poll(node, { connection_id: connectionId, timeout: '1000' })).body.events);
    }
    const ids = collected.filter((e) => e.type === 'message.new').map((e) => e.message?.id);
    expect(ids).toEqual(['lp-1', 'lp-2', 'lp-3']);
  });

  it('answers code 46 with a clear message for an unknown or foreign connection', async () => {
    await nodeA.app.chat.server.upsertUsers([{ id: 'olga' }, { id: 'pia' }]);
    const olga = await nodeA.app.chat.server.createToken('olga');
    const pia = await nodeA.app.chat.server.createToken('pia');
    const opened = await chatCall<Events>(nodeA, 'GET', '/longpoll', { token: olga });
    const id = String(opened.body.events[0]?.connection_id);
    const foreign = await chatCall(nodeB, 'GET', '/longpoll', { token: pia, query: { connection_id: id } });
    expect(foreign).toMatchObject({ status: 400, body: { code: 46 } });
    const unknown = await chatCall(nodeB, 'GET', '/longpoll', {
      token: olga,
      query: { connection_id: 'nope' },
    });
    expect(unknown).toMatchObject({ status: 400, body: { code: 46 } });
    expect(String(unknown.body.message)).toContain('open a new one');
  });
});
