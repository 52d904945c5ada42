import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoNodes, type TestServer, type TwoNodes } from './helpers/server.js';
import { chatCall, openSocket } from './chat-support.js';

/** Two server nodes on one PostgreSQL database and one Redis: fan-out crosses nodes through pub/sub. */
let nodeA: TestServer;
let nodeB: TestServer;
let nodes: TwoNodes | undefined;

beforeAll(async () => {
  nodes = await startTwoNodes(undefined, undefined, { productChatRules: false });
  ({ a: nodeA, b: nodeB } = nodes);
});

afterAll(() => nodes?.close());

describe('two nodes', () => {
  it('delivers a message sent through node A to a socket on node B', async () => {
    await nodeA.app.chat.server.upsertUsers([{ id: 'maria' }, { id: 'noah' }]);
    const mariaToken = await nodeA.app.chat.server.createToken('maria');
    const noahToken = await nodeB.app.chat.server.createToken('noah');
    const created = await chatCall(nodeA, 'POST', '/channels/messaging/two-nodes/query', {
      token: mariaToken,
      body: { data: { members: ['maria', 'noah'] } },
    });
    expect(created.status).toBe(200);
    const onB = await openSocket(nodeB, { token: noahToken });
    const sent = await chatCall(nodeA, 'POST', '/channels/messaging/two-nodes/message', {
      token: mariaToken,
      body: { message: { id: 'across', text: 'over the bus' } },
    });
    expect(sent.status).toBe(200);
    expect(await onB.next('message.new')).toMatchObject({
      cid: 'messaging:two-nodes',
      message: { id: 'across', text: 'over the bus' },
    });
    await onB.close();
  });
});

describe('two nodes: presence', () => {
  it('tells a co-member on node B that a user came online on node A', async () => {
    await nodeA.app.chat.server.upsertUsers([{ id: 'ana' }, { id: 'ben' }]);
    await nodeA.app.chat.server.getOrCreateChannel(
      'messaging',
      'presence-2n',
      { members: ['ana', 'ben'] },
      'ana',
    );
    const benToken = await nodeB.app.chat.server.createToken('ben');
    const anaToken = await nodeA.app.chat.server.createToken('ana');
    const onB = await openSocket(nodeB, { token: benToken });
    // The presence subscription is set through node A while the connection lives on node B (over the bus).
    const q = await chatCall(nodeA, 'POST', '/channels', {
      token: benToken,
      query: { connection_id: onB.first.connection_id as string },
      body: { filter_conditions: { cid: 'messaging:presence-2n' }, presence: true },
    });
    expect(q.status).toBe(200);
    const onA = await openSocket(nodeA, { token: anaToken });
    expect(await onB.next('user.presence.changed')).toMatchObject({ user: { id: 'ana', online: true } });
    await onA.close();
    expect(await onB.next('user.presence.changed')).toMatchObject({ user: { id: 'ana', online: false } });
    await onB.close();
  });
});
