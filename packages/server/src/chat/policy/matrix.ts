/**
 * The chat authorization matrix: who may call each chat endpoint and who receives each event type, by position
 * relative to one channel. `docs/permissions.md` shows it (a unit test keeps them equal; regenerate with
 * `npx tsx packages/server/scripts/chat-permissions-doc.ts`), and `test/chat-authz-matrix.test.ts` runs every cell
 * against a real server on PostgreSQL and PGlite, with a WebSocket open for every position. The rule behind the
 * reader columns is `policy/read-access`.
 */

/** Where someone stands relative to one channel (`messaging`, `team` = the organization). */
export const CHAT_POSITIONS = [
  'owner',
  'moderator',
  'member',
  'client',
  'guest',
  'pendingInvitee',
  'rejectedInvitee',
  'removedMember',
  'bannedMember',
  'orgMember',
  'chatGuest',
  'anonymous',
  'outsider',
] as const;
export type ChatPosition = (typeof CHAT_POSITIONS)[number];

/** What a position means, for the docs. */
export const CHAT_POSITION_LABELS: Record<ChatPosition, string> = {
  owner: 'member with channel role `owner` (created the channel)',
  moderator: 'member with channel role `channel_moderator`',
  member: 'member with channel role `channel_member`',
  client: 'client of the organization (`clientOf`), member of the channel',
  guest: 'guest of the organization (`guestOf`), member of the channel',
  pendingInvitee: 'invited, has not answered',
  rejectedInvitee: 'invited, rejected the invite',
  removedMember: 'was a member (wrote in it), removed',
  bannedMember:
    'member with `banned` set (no endpoint sets it yet: the test sets it with SQL), wrote in it before',
  orgMember: 'team member of the organization (same `team`), not a member of the channel',
  chatGuest: 'identity made by `POST /chat/guest` (role `guest`), not a member',
  anonymous: '`Auth-Type: anonymous` connection, no user',
  outsider: 'a user with no relation to the channel or the organization',
};

/** Short column headers. */
export const CHAT_POSITION_HEADERS: Record<ChatPosition, string> = {
  owner: 'owner',
  moderator: 'mod',
  member: 'member',
  client: 'client',
  guest: 'guest',
  pendingInvitee: 'pending',
  rejectedInvitee: 'rejected',
  removedMember: 'removed',
  bannedMember: 'banned',
  orgMember: 'org',
  chatGuest: '/guest',
  anonymous: 'anon',
  outsider: 'outsider',
};

/** Readers of the channel (policy/read-access `MEMBER_READS`). */
export const READERS: readonly ChatPosition[] = ['owner', 'moderator', 'member', 'client', 'guest'];
const MODERATORS: readonly ChatPosition[] = ['owner', 'moderator'];
const USERS: readonly ChatPosition[] = CHAT_POSITIONS.filter((p) => p !== 'anonymous');
const EVERYONE: readonly ChatPosition[] = CHAT_POSITIONS;
const NOBODY: readonly ChatPosition[] = [];

export interface ChatEndpointRule {
  /** Positions whose call succeeds (2xx); every other position is refused (4xx) and changes nothing. */
  allow: readonly ChatPosition[];
  /**
   * For calls every allowed position makes about themselves (lists, sync, unread): the positions whose answer
   * carries the channel's data. Every other position's answer must not.
   */
  sees?: readonly ChatPosition[];
  /** What the case does and why, for the docs. */
  note: string;
}

const readers = (note: string): ChatEndpointRule => ({ allow: READERS, note });
const mods = (note: string): ChatEndpointRule => ({ allow: MODERATORS, note });
const self = (note: string, sees?: readonly ChatPosition[]): ChatEndpointRule => ({
  allow: USERS,
  ...(sees ? { sees } : {}),
  note,
});
const admin = (note = 'the server (API secret) or a global admin only'): ChatEndpointRule => ({
  allow: NOBODY,
  note,
});

/** Every chat endpoint (`METHOD /chat/path`, as `CHAT_ENDPOINTS` names it) and who may call it. */
export const CHAT_ENDPOINT_RULES: Record<string, ChatEndpointRule> = {
  'GET /chat/connect': { allow: EVERYONE, note: 'any token opens a socket; events follow the read rule' },
  'GET /chat/longpoll': { allow: EVERYONE, note: 'as the socket' },
  'GET /chat/hi': { allow: EVERYONE, note: 'no data' },
  'POST /chat/guest': { allow: EVERYONE, note: 'API key only: makes a new guest identity' },
  'POST /chat/devices': self('own devices'),
  'GET /chat/devices': self('own devices'),
  'DELETE /chat/devices': self('own devices'),
  'GET /chat/rate_limits': { allow: EVERYONE, note: 'own limits' },
  'GET /chat/og': {
    allow: USERS,
    note: 'link preview of a public page; no channel data (anonymous: read-only gate)',
  },
  'POST /chat/channels': { allow: EVERYONE, sees: READERS, note: 'the list shows readers their channel' },
  'POST /chat/channels/{type}/{id}/query': readers('channel state: messages, members, read state'),
  'POST /chat/channels/{type}/query': {
    allow: ['owner', 'member'],
    sees: ['owner', 'member'],
    note: 'by member list (owner, member): only exactly its members get that channel; nobody creates a `messaging` channel through the chat API (the product does, issue 13 §2)',
  },
  'PATCH /chat/channels/{type}/{id}': mods('update-channel'),
  'POST /chat/channels/{type}/{id}': {
    allow: NOBODY,
    note: "add members: update-channel-members, denied on `messaging` (members are the product's to change, issue 13 §2)",
  },
  'DELETE /chat/channels/{type}/{id}': mods('delete-channel'),
  'PATCH /chat/channels/{type}/{id}/member/{userId}': readers('own member state (pin)'),
  'POST /chat/channels/{type}/{id}/message': readers('send-message'),
  'GET /chat/channels/{type}/{id}/messages': readers('read'),
  'GET /chat/channels/{type}/{id}/pinned_messages': readers('read'),
  'POST /chat/channels/{type}/{id}/read': readers('own read state'),
  'POST /chat/channels/{type}/{id}/unread': readers('own read state'),
  'POST /chat/channels/{type}/{id}/event': readers('typing events'),
  'POST /chat/channels/{type}/{id}/hide': readers('own list state'),
  'POST /chat/channels/{type}/{id}/show': readers('own list state'),
  'POST /chat/channels/{type}/{id}/stop-watching': readers('own connection'),
  'POST /chat/channels/{type}/{id}/truncate': mods('truncate-channel'),
  'POST /chat/channels/read': self('marks own channels read'),
  'POST /chat/channels/delivered': self('own delivery reports; unreadable channels are skipped'),
  'POST /chat/moderation/mute/channel': readers('mute-channel'),
  'POST /chat/moderation/unmute/channel': readers('mute-channel'),
  'POST /chat/moderation/flag': readers("flag-message (someone else's message)"),
  'POST /chat/sync': self(
    'missed events: only a reader gets the channel’s, none from before joining',
    READERS,
  ),
  'GET /chat/messages/{id}': readers('read'),
  'POST /chat/messages/{id}': readers(
    'edit own message (the removed and banned keep theirs but may not edit)',
  ),
  'PUT /chat/messages/{id}': readers('edit own message'),
  'DELETE /chat/messages/{id}': readers('delete own message'),
  'POST /chat/messages/{id}/undelete': {
    allow: ['moderator'],
    note: 'delete-any-message (channel moderators; the owner role is not granted it)',
  },
  'GET /chat/messages/{id}/replies': readers('read'),
  'POST /chat/messages/{id}/reaction': readers('send-reaction'),
  'DELETE /chat/messages/{id}/reaction/{type}': readers('own reaction'),
  'GET /chat/messages/{id}/reactions': readers('read'),
  'POST /chat/messages/{id}/reactions': readers('read'),
  'POST /chat/messages/history': readers('read'),
  'POST /chat/threads': self(
    'threads one takes part in (here the parent’s author); a removed or banned participant no longer sees theirs',
    ['member'],
  ),
  'GET /chat/threads/{id}': readers('read'),
  'PATCH /chat/threads/{id}': {
    allow: ['member'],
    note: 'the parent’s author (update-own-message); update-any-message is denied on `messaging` (nobody changes another person’s words, issue 13 §3)',
  },
  'GET /chat/search': self('search: only readers find the channel’s messages', READERS),
  'GET /chat/unread': self('own counts: only readers count the channel', READERS),
  'POST /chat/unread_batch': admin(),
  'GET /chat/users': {
    allow: EVERYONE,
    sees: READERS,
    note: 'a member of the channel is seen by its readers only',
  },
  'POST /chat/users': self('upserts themselves'),
  'GET /chat/permissions': admin(),
  'GET /chat/permissions/{id}': admin(),
  'POST /chat/permissions': admin(),
  'PUT /chat/permissions/{id}': admin(),
  'DELETE /chat/permissions/{id}': admin(),
  'GET /chat/roles': admin(),
  'POST /chat/roles': admin(),
  'DELETE /chat/roles/{name}': admin(),
  'GET /chat/channeltypes': { allow: EVERYONE, note: 'channel type settings: no user data' },
  'GET /chat/channeltypes/{name}': self('channel type settings: no user data'),
  'POST /chat/channeltypes': admin(),
  'PUT /chat/channeltypes/{name}': admin(),
  'DELETE /chat/channeltypes/{name}': admin(),
  'GET /chat/commands': self('slash commands: no user data'),
  'GET /chat/commands/{name}': admin(),
  'POST /chat/commands': admin(),
  'PUT /chat/commands/{name}': admin(),
  'DELETE /chat/commands/{name}': admin(),
  'POST /chat/channels/delete': mods('a task; each channel needs delete-channel'),
  'GET /chat/tasks/{id}': { allow: ['owner'], note: 'the task of whoever started it (here: the owner)' },
  'GET /chat/members': readers('members of a channel'),
  'DELETE /chat/users/{id}': admin(),
  'POST /chat/users/delete': admin(),
  'POST /chat/users/{id}/deactivate': admin(),
  'POST /chat/users/{id}/reactivate': admin(),
  'POST /chat/users/deactivate': admin(),
  'POST /chat/users/reactivate': admin(),
  'POST /chat/users/restore': admin(),
  'GET /chat/users/{id}/export': { allow: ['member'], note: 'own data only (here: the member’s)' },
  'POST /chat/users/block': self('own blocks'),
  'GET /chat/users/block': self('own blocks'),
  'POST /chat/users/unblock': self('own blocks'),
  'POST /chat/users/{id}/event': admin(),
  'POST /chat/channels/{type}/{id}/file': readers('upload-file'),
  'POST /chat/channels/{type}/{id}/image': readers('upload-file'),
  'DELETE /chat/channels/{type}/{id}/file': readers('own upload, while no message carries it'),
  'DELETE /chat/channels/{type}/{id}/image': readers('own upload, while no message carries it'),
  'POST /chat/uploads/file': self('any signed-in user; the file is theirs alone until a message carries it'),
  'POST /chat/uploads/image': self('any signed-in user; the file is theirs alone until a message carries it'),
  'DELETE /chat/uploads/file': self('own upload, while no message carries it'),
  'DELETE /chat/uploads/image': self('own upload, while no message carries it'),
  'GET /chat/app': { allow: EVERYONE, note: 'the upload configuration: no user data' },
  'PATCH /chat/app': { allow: NOBODY, note: 'the server (API secret) only' },
  'GET /chat/files/{id}/{name}': readers(
    'a file attached to a message: whoever may read the message now (read rule); 404 for everyone else',
  ),
  'GET /chat/files/{id}/thumb': readers('as the file'),
};

/**
 * Who receives an event type about the channel (or about one of its members): `readers` only; `readersAndSubject`
 * (also the person it is about, whatever their position: their invite, their removal, their own hide);
 * `connection` (the connection's own frames: no channel data); `never` (synthesised by the client, never sent).
 */
export type EventAudience = 'readers' | 'readersAndSubject' | 'connection' | 'never';

const R = 'readers' as const;
const S = 'readersAndSubject' as const;

/** Every event type of the protocol's `ChatEvent` union and who may receive it. */
export const CHAT_EVENT_AUDIENCE: Record<string, EventAudience> = {
  'health.check': 'connection',
  'connection.error': 'connection',
  'connection.changed': 'never',
  'connection.recovered': 'never',
  'message.new': R,
  'message.updated': R,
  'message.deleted': R,
  'message.undeleted': R,
  'message.read': R,
  'message.delivered': R,
  'reaction.new': R,
  'reaction.updated': R,
  'reaction.deleted': R,
  'typing.start': R,
  'typing.stop': R,
  'thread.updated': R,
  'capabilities.changed': R,
  'channel.updated': R,
  'channel.deleted': R,
  'channel.truncated': R,
  'channel.hidden': S,
  'channel.visible': S,
  'member.added': S,
  'member.updated': S,
  'member.removed': S,
  'notification.message_new': R,
  'notification.added_to_channel': S,
  'notification.removed_from_channel': S,
  'notification.invited': S,
  'notification.invite_accepted': S,
  'notification.invite_rejected': S,
  'notification.mark_read': S,
  'notification.mark_unread': S,
  'notification.channel_mutes_updated': S,
  'user.updated': R,
  'user.presence.changed': R,
  'user.deleted': R,
  'user.deactivated': R,
  'user.reactivated': R,
};
