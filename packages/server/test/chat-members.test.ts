import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { chatUser, openSocket, type ChatUserClient } from './chat-support.js';

let server: TestServer;
let maria: ChatUserClient;
let noah: ChatUserClient;
let chloe: ChatUserClient;

type State = { channel: { cid: string; own_capabilities: string[]; muted?: boolean }; messages: unknown[] };
const cids = (body: Record<string, unknown>) => (body.channels as State[]).map((s) => s.channel.cid);

beforeAll(async () => {
  server = await startTestServer({ productChatRules: false });
  maria = await chatUser(server, 'maria');
  noah = await chatUser(server, 'noah');
  chloe = await chatUser(server, 'chloe');
  await maria.call('POST', '/channels/messaging/team/query', { data: { members: ['maria', 'noah'] } });
  await maria.call('POST', '/channels/messaging/team/message', {
    message: { id: 'm-1', text: 'before invite' },
  });
});

afterAll(async () => {
  await server?.close();
});

describe('invites', () => {
  it('invites, lists as pending, keeps messages back until accepted', async () => {
    const socket = await openSocket(server, { token: chloe.token });
    const res = await maria.call('POST', '/channels/messaging/team', { invites: ['chloe'] });
    expect(res.status).toBe(200);
    expect(await socket.next('notification.invited')).toMatchObject({
      cid: 'messaging:team',
      member: { user_id: 'chloe', invited: true },
    });
    expect(cids((await chloe.call('POST', '/channels', {})).body)).not.toContain('messaging:team');
    const pending = await chloe.call('POST', '/channels', { filter_conditions: { invite: 'pending' } });
    const state = (pending.body.channels as State[])[0];
    expect(state).toMatchObject({ channel: { cid: 'messaging:team', own_capabilities: [] }, messages: [] });
    expect((await chloe.call('POST', '/channels/messaging/team/query', {})).status).toBe(403);

    // Pending invitees get no channel events.
    await maria.call('POST', '/channels/messaging/team/message', { message: { text: 'while pending' } });
    expect(await socket.receives('message.new', 200)).toBe(false);

    const accepted = await chloe.call('POST', '/channels/messaging/team', { accept_invite: true });
    expect(accepted.status).toBe(200);
    expect(await socket.next('notification.invite_accepted')).toMatchObject({ cid: 'messaging:team' });
    const read = await chloe.call('POST', '/channels/messaging/team/query', {});
    expect(read.status).toBe(200);
    expect((read.body as unknown as State).channel.own_capabilities).toContain('send-message');
    expect(
      (await chloe.call('POST', '/channels/messaging/team', { accept_invite: true })).body,
    ).toMatchObject({
      code: 4,
    });
    await socket.close();
  });

  it('rejects an invite: the channel stays out of the list', async () => {
    await chatUser(server, 'eve');
    const eve = await chatUser(server, 'eve');
    await maria.call('POST', '/channels/messaging/team', { invites: ['eve'] });
    const socket = await openSocket(server, { token: eve.token });
    const rejected = await eve.call('POST', '/channels/messaging/team', { reject_invite: true });
    expect(rejected.status).toBe(200);
    expect(await socket.next('notification.invite_rejected')).toMatchObject({ cid: 'messaging:team' });
    expect(cids((await eve.call('POST', '/channels', {})).body)).toEqual([]);
    expect(
      cids((await eve.call('POST', '/channels', { filter_conditions: { invite: 'rejected' } })).body),
    ).toEqual(['messaging:team']);
    expect((await eve.call('POST', '/channels/messaging/other', { accept_invite: true })).status).toBe(404);
    await socket.close();
  });
});

describe('moderators and roles', () => {
  it('adds and demotes moderators with member.updated; refuses unknown roles and members', async () => {
    const socket = await openSocket(server, { token: noah.token });
    const res = await maria.call('POST', '/channels/messaging/team', { add_moderators: ['noah'] });
    expect(res.status).toBe(200);
    expect(await socket.next('member.updated')).toMatchObject({
      member: { user_id: 'noah', channel_role: 'channel_moderator' },
    });
    const caps = (await noah.call('POST', '/channels/messaging/team/query', {})).body as unknown as State;
    expect(caps.channel.own_capabilities).toContain('delete-any-message');
    await maria.call('POST', '/channels/messaging/team', { demote_moderators: ['noah'] });
    expect(await socket.next('member.updated')).toMatchObject({ member: { channel_role: 'channel_member' } });
    const bad = await maria.call('POST', '/channels/messaging/team', {
      assign_roles: [{ user_id: 'noah', channel_role: 'admin' }],
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 4 } });
    const stranger = await maria.call('POST', '/channels/messaging/team', { add_moderators: ['nobody'] });
    expect(stranger.status).toBe(404);
    const self = await noah.call('POST', '/channels/messaging/team', { add_moderators: ['noah'] });
    expect(self).toMatchObject({ status: 403, body: { code: 17 } });
    await socket.close();
  });
});

describe('per-member state', () => {
  it('pins and archives per member, with filters and sort', async () => {
    await maria.call('POST', '/channels/messaging/second/query', { data: { members: ['maria', 'noah'] } });
    const pinned = await maria.call('PATCH', '/channels/messaging/second/member/maria', {
      set: { pinned: true },
    });
    expect(pinned.body).toMatchObject({ channel_member: { user_id: 'maria' } });
    expect((pinned.body.channel_member as { pinned_at: string | null }).pinned_at).toBeTruthy();
    expect(
      cids((await maria.call('POST', '/channels', { filter_conditions: { pinned: true } })).body),
    ).toEqual(['messaging:second']);
    expect(
      cids((await noah.call('POST', '/channels', { filter_conditions: { pinned: true } })).body),
    ).toEqual([]);
    const sorted = await maria.call('POST', '/channels', {
      sort: [{ field: 'pinned_at', direction: -1 }],
    });
    expect(cids(sorted.body)[0]).toBe('messaging:second');

    // The pin is Maria's own: her membership says so, the members list others read does not.
    type Member = { user_id: string; pinned_at?: string | null; archived_at?: string | null };
    type WithMembers = { members: Member[]; membership?: Member };
    const mine = (await maria.call('POST', '/channels/messaging/second/query', {}))
      .body as unknown as WithMembers;
    expect(mine.membership?.pinned_at).toBeTruthy();
    const theirs = (await noah.call('POST', '/channels/messaging/second/query', {}))
      .body as unknown as WithMembers;
    const mariaSeen = theirs.members.find((m) => m.user_id === 'maria');
    expect(mariaSeen).toBeDefined();
    expect(mariaSeen).not.toHaveProperty('pinned_at');
    expect(mariaSeen).not.toHaveProperty('archived_at');
    expect(theirs.membership).toMatchObject({ user_id: 'noah', pinned_at: null, archived_at: null });

    await maria.call('PATCH', '/channels/messaging/team/member/maria', { set: { archived: true } });
    expect(
      cids((await maria.call('POST', '/channels', { filter_conditions: { archived: true } })).body),
    ).toEqual(['messaging:team']);
    expect(
      cids((await maria.call('POST', '/channels', { filter_conditions: { archived: false } })).body),
    ).not.toContain('messaging:team');
    await maria.call('PATCH', '/channels/messaging/team/member/maria', { unset: ['archived'] });
    expect(
      cids((await maria.call('POST', '/channels', { filter_conditions: { archived: true } })).body),
    ).toEqual([]);

    expect(
      (await maria.call('PATCH', '/channels/messaging/team/member/noah', { set: { pinned: true } })).status,
    ).toBe(403);
    expect(
      (await maria.call('PATCH', '/channels/messaging/team/member/maria', { set: { channel_role: 'x' } }))
        .status,
    ).toBe(400);
  });

  it('mutes a channel (out of the totals) and unmutes it', async () => {
    await maria.call('POST', '/channels/messaging/team/message', { message: { text: 'count me' } });
    const before = await openSocket(server, { token: noah.token });
    const unread = (before.first.me as { total_unread_count: number }).total_unread_count;
    expect(unread).toBeGreaterThan(0);
    const muted = await noah.call('POST', '/moderation/mute/channel', { channel_cid: 'messaging:team' });
    expect(muted.status).toBe(200);
    expect(await before.next('notification.channel_mutes_updated')).toMatchObject({
      me: { channel_mutes: [{ cid: 'messaging:team' }] },
    });
    const after = await openSocket(server, { token: noah.token });
    expect((after.first.me as { total_unread_count: number }).total_unread_count).toBeLessThan(unread);
    expect(cids((await noah.call('POST', '/channels', { filter_conditions: { muted: true } })).body)).toEqual(
      ['messaging:team'],
    );
    await noah.call('POST', '/moderation/unmute/channel', { channel_cids: ['messaging:team'] });
    const q = await noah.call('POST', '/channels/messaging/team/query', {});
    expect((q.body as unknown as State).channel.muted).toBe(false);
    expect((await noah.call('POST', '/moderation/mute/channel', {})).status).toBe(400);
    await before.close();
    await after.close();
  });

  it('hide with clear_history drops the history so far from that member only', async () => {
    await maria.call('POST', '/channels/messaging/second/message', { message: { id: 'h-1', text: 'old' } });
    await noah.call('POST', '/channels/messaging/second/hide', { clear_history: true });
    await maria.call('POST', '/channels/messaging/second/message', { message: { id: 'h-2', text: 'new' } });
    const noahView = await noah.call('POST', '/channels/messaging/second/query', {});
    expect((noahView.body.messages as Array<{ id: string }>).map((m) => m.id)).toEqual(['h-2']);
    const mariaView = await maria.call('POST', '/channels/messaging/second/query', {});
    expect((mariaView.body.messages as Array<{ id: string }>).map((m) => m.id)).toEqual(['h-1', 'h-2']);
  });
});

describe('invites and member changes', () => {
  it('removing a pending invitee cancels the invite; adding one makes them a full member', async () => {
    const zoe = await chatUser(server, 'zoe');
    const yan = await chatUser(server, 'yan');
    await maria.call('POST', '/channels/messaging/team', { invites: ['zoe', 'yan'] });
    expect((await maria.call('POST', '/channels/messaging/team', { remove_members: ['zoe'] })).status).toBe(
      200,
    );
    expect(
      cids((await zoe.call('POST', '/channels', { filter_conditions: { invite: 'pending' } })).body),
    ).toEqual([]);
    await maria.call('POST', '/channels/messaging/team', { add_members: ['yan'] });
    expect((await yan.call('POST', '/channels/messaging/team/query', {})).status).toBe(200);
  });
});
