import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '@caseroom/protocol';
import { signChatToken } from '../src/chat/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatCall, chatUser, type ChatUserClient, type Reply } from './chat-support.js';

let server: TestServer;
let admin: (method: string, path: string, body?: unknown) => Promise<Reply>;
let maria: ChatUserClient;
let noah: ChatUserClient;
const cid = 'messaging:perm';
let n = 0;
const uid = (p: string) => `${p}-${++n}`;

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  const token = await signChatToken(server.config, { server: true });
  admin = (method, path, body) => chatCall(server, method, path, { token, ...(body ? { body } : {}) });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  await server.app.chat.server.getOrCreateChannel(
    'messaging',
    'perm',
    { members: ['maria', 'noah'] },
    'maria',
  );
});

afterAll(async () => {
  await server?.close();
});

const seed = (text: string, userId = 'maria') =>
  server.app.chat.server.sendMessage(cid, userId, { id: uid('seed'), text });

const caps = async (user: ChatUserClient) => {
  const res = await user.call('POST', '/channels/messaging/perm/query', {});
  return (res.body.channel as { own_capabilities: string[] }).own_capabilities;
};

/** One request per capability that needs it; each call builds fresh state so it can run many times. */
const MATRIX: Array<[Capability, () => Promise<Reply>]> = [
  ['send-message', () => maria.call('POST', '/channels/messaging/perm/message', { message: { text: 'hi' } })],
  [
    'send-reply',
    async () => {
      const parent = await seed('parent');
      return maria.call('POST', '/channels/messaging/perm/message', {
        message: { text: 'reply', parent_id: parent.id },
      });
    },
  ],
  [
    'upload-file',
    () =>
      maria.call('POST', '/channels/messaging/perm/message', {
        message: { text: 'file', attachments: [{ type: 'file', asset_url: 'x' }] },
      }),
  ],
  [
    'send-links',
    () => maria.call('POST', '/channels/messaging/perm/message', { message: { text: 'see example.com/a' } }),
  ],
  [
    'quote-message',
    async () => {
      const quoted = await seed('quoted');
      return maria.call('POST', '/channels/messaging/perm/message', {
        message: { text: 'quote', quoted_message_id: quoted.id },
      });
    },
  ],
  [
    'send-reaction',
    async () =>
      maria.call('POST', `/messages/${(await seed('react')).id}/reaction`, { reaction: { type: 'like' } }),
  ],
  ['read-events', () => maria.call('POST', '/channels/messaging/perm/read', {})],
  [
    'typing-events',
    () => maria.call('POST', '/channels/messaging/perm/event', { event: { type: 'typing.start' } }),
  ],
  [
    'send-custom-events',
    () => maria.call('POST', '/channels/messaging/perm/event', { event: { type: 'ping' } }),
  ],
  [
    'pin-message',
    async () => maria.call('PUT', `/messages/${(await seed('pin')).id}`, { set: { pinned: true } }),
  ],
  [
    'update-own-message',
    async () => maria.call('PUT', `/messages/${(await seed('edit')).id}`, { set: { text: 'edited' } }),
  ],
  ['delete-own-message', async () => maria.call('DELETE', `/messages/${(await seed('del')).id}`)],
  ['update-channel', () => maria.call('PATCH', '/channels/messaging/perm', { set: { name: uid('name') } })],
  [
    'update-channel-members',
    async () => {
      const id = uid('guest');
      await server.app.chat.server.upsertUsers([{ id }]);
      return maria.call('POST', '/channels/messaging/perm', { add_members: [id] });
    },
  ],
];

describe('capability matrix', () => {
  it.each(MATRIX)('%s: granted answers 200, denied by a rule answers 403 (code 17)', async (cap, request) => {
    expect(await caps(maria)).toContain(cap);
    const granted = await request();
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);

    const rule = await admin('POST', '/permissions', {
      id: `deny-${cap}`,
      name: `Deny ${cap}`,
      action: 'Deny',
      priority: 100,
      resources: [cap],
      roles: ['*'],
      channel_type: 'messaging',
    });
    expect(rule.status).toBe(200);
    try {
      expect(await caps(maria)).not.toContain(cap);
      const denied = await request();
      expect(denied).toMatchObject({ status: 403, body: { code: 17, StatusCode: 403 } });
    } finally {
      expect((await admin('DELETE', `/permissions/deny-${cap}`)).status).toBe(200);
    }
    expect((await request()).status).toBe(200);
  });
});

describe('permission and role administration', () => {
  it('lists the built-in rules, Allow all 999 and Deny all 1', async () => {
    const res = await admin('GET', '/permissions');
    const rules = res.body.permissions as Array<{ id: string; priority: number; builtin: boolean }>;
    expect(rules.find((r) => r.id === 'allow-all')).toMatchObject({ priority: 999, builtin: true });
    expect(rules.find((r) => r.id === 'deny-all')).toMatchObject({ priority: 1, builtin: true });
    expect((await admin('GET', '/permissions/allow-all')).body.permission).toMatchObject({
      name: 'Allow all',
    });
  });

  it('is server/admin only', async () => {
    for (const [method, path] of [
      ['GET', '/permissions'],
      ['POST', '/permissions'],
      ['GET', '/roles'],
      ['POST', '/roles'],
      ['POST', '/channeltypes'],
      ['DELETE', '/roles/x'],
    ] as const) {
      const res = await maria.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect([400, 403]).toContain(res.status);
    }
    const rule = await maria.call('POST', '/permissions', {
      name: 'x',
      action: 'Allow',
      priority: 500,
      resources: ['*'],
      roles: ['*'],
    });
    expect(rule).toMatchObject({ status: 403, body: { code: 17 } });
  });

  it('refuses changing or deleting built-in rules, unknown roles and types', async () => {
    expect((await admin('DELETE', '/permissions/deny-all')).status).toBe(403);
    const base = { name: 'r', action: 'Allow', priority: 500, resources: ['send-message'] };
    expect((await admin('PUT', '/permissions/allow-all', { ...base, roles: ['*'] })).status).toBe(403);
    expect((await admin('POST', '/permissions', { ...base, roles: ['nobody'] })).body).toMatchObject({
      code: 4,
    });
    expect(
      (await admin('POST', '/permissions', { ...base, roles: ['*'], channel_type: 'nope' })).body,
    ).toMatchObject({ code: 16 });
    expect((await admin('POST', '/permissions', { ...base, roles: ['*'], priority: 999 })).status).toBe(400);
  });

  it('creates a custom channel role that rules grant capabilities to', async () => {
    expect((await admin('POST', '/roles', { name: 'helper', scope: 'channel' })).status).toBe(200);
    expect((await admin('POST', '/roles', { name: 'helper' })).body).toMatchObject({ code: 4 });
    const roles = (await admin('GET', '/roles')).body.roles as Array<{ name: string; custom: boolean }>;
    expect(roles).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'helper', custom: true })]),
    );
    await admin('POST', '/permissions', {
      id: 'helpers-freeze',
      name: 'Helpers freeze',
      action: 'Allow',
      priority: 80,
      resources: ['freeze-channel', 'update-channel'],
      roles: ['helper'],
    });
    await server.db.query(
      `UPDATE chat_members SET channel_role = 'helper' WHERE cid = $1 AND user_id = 'noah'`,
      [cid],
    );
    const list = await caps(noah);
    expect(list).toContain('freeze-channel');
    expect(list).not.toContain('send-message');
    expect((await noah.call('PATCH', '/channels/messaging/perm', { set: { frozen: false } })).status).toBe(
      200,
    );
    expect((await admin('DELETE', '/roles/helper')).body).toMatchObject({ code: 4 });
    await server.db.query(
      `UPDATE chat_members SET channel_role = 'channel_member' WHERE cid = $1 AND user_id = 'noah'`,
      [cid],
    );
    await admin('DELETE', '/permissions/helpers-freeze');
    expect((await admin('DELETE', '/roles/helper')).status).toBe(200);
    expect((await admin('DELETE', '/roles/admin')).status).toBe(403);
  });
});

describe('channel types', () => {
  it('lists messaging with its defaults (commands: all) and its rules', async () => {
    const res = await maria.call('GET', '/channeltypes');
    const types = res.body.channel_types as Record<string, Record<string, unknown>>;
    expect(types.messaging).toMatchObject({
      name: 'messaging',
      builtin: true,
      commands: ['all'],
      url_enrichment: true,
      typing_events: true,
      read_events: true,
      replies: true,
      reactions: true,
    });
    expect((types.messaging?.permissions as unknown[]).length).toBeGreaterThan(0);
  });

  it('creates a type, channels follow its settings, and it cannot be deleted while used', async () => {
    const created = await admin('POST', '/channeltypes', { name: 'support', typing_events: false });
    expect(created.body).toMatchObject({ name: 'support', typing_events: false, reactions: true });
    expect((await admin('POST', '/channeltypes', { name: 'support' })).body).toMatchObject({ code: 4 });
    expect((await admin('POST', '/channeltypes', { name: 'bad:name' })).status).toBe(400);
    const made = await maria.call('POST', '/channels/support/desk/query', { data: { members: ['maria'] } });
    expect(made.status).toBe(200);
    const channel = made.body.channel as { own_capabilities: string[]; config: Record<string, unknown> };
    expect(channel.config).toMatchObject({ name: 'support', typing_events: false });
    expect(channel.own_capabilities).not.toContain('typing-events');
    const typing = await maria.call('POST', '/channels/support/desk/event', {
      event: { type: 'typing.start' },
    });
    expect(typing).toMatchObject({ status: 403, body: { code: 17 } });

    const updated = await admin('PUT', '/channeltypes/support', { typing_events: true, reactions: false });
    expect(updated.body).toMatchObject({ typing_events: true, reactions: false });
    const again = await maria.call('POST', '/channels/support/desk/query', {});
    const list = (again.body.channel as { own_capabilities: string[] }).own_capabilities;
    expect(list).toContain('typing-events');
    expect(list).not.toContain('send-reaction');

    expect((await admin('DELETE', '/channeltypes/support')).body).toMatchObject({ code: 4 });
    expect((await admin('DELETE', '/channeltypes/messaging')).status).toBe(403);
    expect((await maria.call('PUT', '/channeltypes/support', { reactions: true })).status).toBe(403);
    expect((await admin('PUT', '/channeltypes/support', { bogus: 1 })).status).toBe(400);
  });

  it('refuses channels of an unknown type with code 16', async () => {
    const res = await maria.call('POST', '/channels/nosuch/x/query', { data: { members: ['maria'] } });
    expect(res).toMatchObject({ status: 404, body: { code: 16 } });
  });
});
