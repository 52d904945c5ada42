import { z } from 'zod';
import { ChatErrorBody } from '../errors.js';
import {
  ChannelTypeCreate,
  ChannelTypeUpdate,
  ChannelType,
  ChatRole,
  ChatRoleInput,
  PermissionInput,
  PermissionRule,
} from './admin.js';
import { ADMIN_ENDPOINTS } from './api-admin.js';
import { ep, type ChatEndpoint } from './api-endpoint.js';
import { UPLOAD_ENDPOINTS } from './api-uploads.js';
import { FileQuery, OgQuery, OgResponse } from './attachments.js';
import * as R from './api-requests.js';
import { WireEvent } from './events.js';
import {
  MessageHistoryRequest,
  MessageHistoryResponse,
  QueryReactionsRequest,
  QueryReactionsResponse,
} from './message-queries.js';
import { Channel, ChannelMember, ChannelState, ChatUser, Message, OwnUser, Reaction } from './models.js';
import { QueryChannelRequest, QueryChannelsRequest, SendMessageRequest, SyncRequest } from './requests.js';
import {
  QueryChannelResponse,
  QueryChannelsResponse,
  SendMessageResponse,
  SyncResponse,
} from './responses.js';
import { SearchRequest, SearchResponse } from './search.js';
import { QueryThreadsRequest, Thread } from './threads.js';

export type { ChatEndpoint } from './api-endpoint.js';

const Empty = z.object({});
const MessageOut = z.object({ message: Message });
const MessagesOut = z.object({ messages: z.array(Message) });
const ReactionOut = z.object({ message: Message, reaction: Reaction });
const EventOut = z.object({ event: WireEvent });
const ThreadOut = z.object({ thread: Thread });
const Limit = z.object({ limit: z.number(), remaining: z.number(), reset: z.number() });
const UnreadCounts = z.object({
  total_unread_count: z.number(),
  unread_channels: z.number(),
  total_unread_threads_count: z.number(),
  channels: z.array(z.object({ channel_id: z.string(), unread_count: z.number(), last_read: z.string() })),
  channel_type: z.array(
    z.object({ channel_type: z.string(), channel_count: z.number(), unread_count: z.number() }),
  ),
  threads: z.array(
    z.object({
      parent_message_id: z.string(),
      channel_cid: z.string(),
      unread_count: z.number(),
      last_read: z.string(),
      last_read_message_id: z.string().optional(),
    }),
  ),
});
const Device = R.DeviceRequest.extend({ user_id: z.string(), created_at: z.string() });
const ChannelMute = z.object({ cid: z.string(), expires: z.string().optional() });
const MutesOut = z.object({
  channel_mutes: z.array(
    z.object({
      user: z.object({ id: z.string() }),
      channel: Channel,
      created_at: z.string(),
      expires: z.string().optional(),
    }),
  ),
  own_user: z.object({ id: z.string(), channel_mutes: z.array(ChannelMute) }),
});
const Payload = z.object({ payload: z.string().describe('the request as JSON') });

/** Every endpoint of the chat HTTP API; docs/chat-api.md is generated from this list. */
export const CHAT_ENDPOINTS: readonly ChatEndpoint[] = [
  ep(
    'GET',
    '/chat/connect',
    'WebSocket. Query: api_key, authorization (JWT) or auth_type=anonymous, user_id, json ({"device"}). First frame health.check.',
  ),
  ep(
    'GET',
    '/chat/longpoll',
    'Long-poll fallback: opens a connection (health.check) or waits for its events.',
    {
      query: R.LongPollQuery,
      response: z.object({ events: z.array(WireEvent) }),
    },
  ),
  ep('GET', '/chat/hi', 'Liveness of the chat API for the caller.', { response: Empty }),
  ep('POST', '/chat/guest', 'Creates a guest user and a token (api_key only).', {
    body: R.GuestRequest,
    response: z.object({ access_token: z.string(), user: ChatUser }),
  }),
  ep('POST', '/chat/devices', 'Registers a push device.', { body: R.DeviceRequest, response: Empty }),
  ep('GET', '/chat/devices', 'Lists the caller’s devices.', {
    query: R.DeviceQuery,
    response: z.object({ devices: z.array(Device) }),
  }),
  ep('DELETE', '/chat/devices', 'Removes a device.', { query: R.DeviceQuery, response: Empty }),
  ep('GET', '/chat/rate_limits', 'The caller’s rate limits per endpoint.', {
    query: R.RateLimitsQuery,
    response: z.object({ web: z.record(z.string(), Limit), server_side: z.record(z.string(), Limit) }),
  }),
  ep(
    'GET',
    '/chat/og',
    'Link preview of a page (enrichURL): an attachment with og_scrape_url; code 4 if none.',
    {
      query: OgQuery,
      response: OgResponse,
    },
  ),

  ep('POST', '/chat/channels', 'Query channels (filters, sort, limit 25, offset, state, watch, presence).', {
    body: QueryChannelsRequest,
    response: QueryChannelsResponse,
  }),
  ep('POST', '/chat/channels/{type}/{id}/query', 'Gets or creates a channel, optionally watching it.', {
    body: QueryChannelRequest,
    response: QueryChannelResponse,
  }),
  ep('POST', '/chat/channels/{type}/query', 'Gets or creates a distinct channel from its member list.', {
    body: QueryChannelRequest,
    response: QueryChannelResponse,
  }),
  ep('PATCH', '/chat/channels/{type}/{id}', 'Partial channel update (set/unset); emits channel.updated.', {
    body: R.PartialUpdateRequest,
    response: z.object({ channel: Channel }),
  }),
  ep('POST', '/chat/channels/{type}/{id}', 'Members, invites, moderators and roles.', {
    body: R.MemberChangesRequest,
    response: ChannelState,
  }),
  ep('DELETE', '/chat/channels/{type}/{id}', 'Deletes the channel; emits channel.deleted.', {
    response: z.object({ channel: Channel }),
  }),
  ep('PATCH', '/chat/channels/{type}/{id}/member/{userId}', 'The member’s own pinned/archived state.', {
    body: R.PartialUpdateRequest,
    response: z.object({ channel_member: ChannelMember }),
  }),
  ep('POST', '/chat/channels/{type}/{id}/message', 'Sends a message (client id: a repeat answers code 4).', {
    body: SendMessageRequest,
    response: SendMessageResponse,
  }),
  ep('GET', '/chat/channels/{type}/{id}/messages', 'Messages by id (`ids`, comma separated).', {
    query: R.MessageIdsQuery,
    response: MessagesOut,
  }),
  ep('GET', '/chat/channels/{type}/{id}/pinned_messages', 'Pins in force, newest first.', {
    query: R.PinnedMessagesQuery,
    response: MessagesOut,
  }),
  ep('POST', '/chat/channels/{type}/{id}/read', 'Marks the channel (or a thread: thread_id) read.', {
    body: R.ReadRequest,
    response: EventOut,
  }),
  ep('POST', '/chat/channels/{type}/{id}/unread', 'Marks the channel unread from a message.', {
    body: R.UnreadRequest,
    response: EventOut,
  }),
  ep('POST', '/chat/channels/{type}/{id}/event', 'typing.start / typing.stop or a custom event.', {
    body: R.ChannelEventRequest,
    response: EventOut,
  }),
  ep('POST', '/chat/channels/{type}/{id}/hide', 'Hides the channel for the caller (clear_history).', {
    body: R.HideRequest,
    response: Empty,
  }),
  ep('POST', '/chat/channels/{type}/{id}/show', 'Shows a hidden channel again.', { response: Empty }),
  ep('POST', '/chat/channels/{type}/{id}/stop-watching', 'The connection stops watching.', {
    response: Empty,
  }),
  ep('POST', '/chat/channels/{type}/{id}/truncate', 'Clears the history for everyone.', {
    response: z.object({ channel: Channel.optional() }),
  }),
  ep('POST', '/chat/channels/read', 'Marks every channel of the caller read.', { response: Empty }),
  ep(
    'POST',
    '/chat/channels/delivered',
    'Batched delivery reports (newest message per channel, at most 100).',
    {
      body: R.DeliveredRequest,
      response: Empty,
    },
  ),
  ep('POST', '/chat/moderation/mute/channel', 'Mutes channels for the caller (expiration in ms).', {
    body: R.MuteChannelRequest,
    response: MutesOut,
  }),
  ep('POST', '/chat/moderation/unmute/channel', 'Unmutes channels.', {
    body: R.MuteChannelRequest,
    response: MutesOut,
  }),
  ep('POST', '/chat/moderation/flag', 'Flags someone else’s message.', {
    body: R.FlagRequest,
    response: z.object({
      flag: z.object({
        target_message_id: z.string(),
        user: z.object({ id: z.string() }),
        reason: z.string().optional(),
        created_at: z.string(),
      }),
    }),
  }),
  ep('POST', '/chat/sync', 'Events missed since last_sync_at (30 days; `more` when capped).', {
    body: SyncRequest,
    response: SyncResponse,
  }),

  ep('GET', '/chat/messages/{id}', 'One message.', { response: MessageOut }),
  ep('POST', '/chat/messages/{id}', 'Full update (custom data replaced).', {
    body: R.UpdateMessageRequest,
    response: MessageOut,
  }),
  ep('PUT', '/chat/messages/{id}', 'Partial update (set/unset).', {
    body: R.PartialUpdateRequest,
    response: MessageOut,
  }),
  ep('DELETE', '/chat/messages/{id}', 'Soft, hard or for-me delete.', {
    query: R.DeleteMessageQuery,
    response: MessageOut,
  }),
  ep('POST', '/chat/messages/{id}/undelete', 'Brings back a soft-deleted message.', { response: MessageOut }),
  ep('GET', '/chat/messages/{id}/replies', 'A page of a thread.', {
    query: R.RepliesQuery,
    response: MessagesOut,
  }),
  ep('POST', '/chat/messages/{id}/reaction', 'Adds or updates the caller’s reaction.', {
    body: R.SendReactionRequest,
    response: ReactionOut,
  }),
  ep('DELETE', '/chat/messages/{id}/reaction/{type}', 'Removes the caller’s reaction.', {
    response: ReactionOut,
  }),
  ep('GET', '/chat/messages/{id}/reactions', 'Reactions, newest first, pages of 300 (`offset` or `next`).', {
    query: R.ReactionsQuery,
    response: QueryReactionsResponse,
  }),
  ep('POST', '/chat/messages/{id}/reactions', 'Query reactions: filter by type or user, sort created_at.', {
    body: QueryReactionsRequest,
    response: QueryReactionsResponse,
  }),
  ep('POST', '/chat/messages/history', 'Earlier versions of a message’s text and attachments.', {
    body: MessageHistoryRequest,
    response: MessageHistoryResponse,
  }),

  ep('POST', '/chat/threads', 'The caller’s threads (limit 10, participant_limit 10, reply_limit 3).', {
    body: QueryThreadsRequest,
    response: z.object({ threads: z.array(Thread), next: z.string().optional() }),
  }),
  ep('GET', '/chat/threads/{id}', 'One thread (participant_limit 100, reply_limit 3).', {
    query: R.GetThreadQuery,
    response: ThreadOut,
  }),
  ep('PATCH', '/chat/threads/{id}', 'Title and custom fields; reserved fields refused.', {
    body: R.PartialUpdateRequest,
    response: ThreadOut,
  }),
  ep('GET', '/chat/search', 'Full-text message search (payload JSON: SearchRequest).', {
    query: Payload,
    body: SearchRequest,
    response: SearchResponse,
  }),
  ep('GET', '/chat/unread', 'The caller’s unread counts.', { response: UnreadCounts }),
  ep('POST', '/chat/unread_batch', 'Unread counts of several users (server/admin).', {
    body: R.UnreadBatchRequest,
    response: z.object({ counts_by_user: z.record(z.string(), UnreadCounts) }),
  }),

  ep('GET', '/chat/users', 'Query users (payload JSON).', {
    query: Payload,
    body: R.UserQueryPayload,
    response: z.object({ users: z.array(ChatUser) }),
  }),
  ep('POST', '/chat/users', 'Upserts users (a user only themselves).', {
    body: R.UpsertUsersRequest,
    response: z.object({ users: z.record(z.string(), ChatUser) }),
  }),

  ep('GET', '/chat/permissions', 'Permission rules (server/admin).', {
    response: z.object({ permissions: z.array(PermissionRule) }),
  }),
  ep('GET', '/chat/permissions/{id}', 'One rule.', { response: z.object({ permission: PermissionRule }) }),
  ep('POST', '/chat/permissions', 'Creates a rule.', {
    body: PermissionInput,
    response: z.object({ permission: PermissionRule }),
  }),
  ep('PUT', '/chat/permissions/{id}', 'Replaces a rule (not built-in ones).', {
    body: PermissionInput,
    response: z.object({ permission: PermissionRule }),
  }),
  ep('DELETE', '/chat/permissions/{id}', 'Deletes a rule (not built-in ones).', { response: Empty }),
  ep('GET', '/chat/roles', 'Roles (server/admin).', { response: z.object({ roles: z.array(ChatRole) }) }),
  ep('POST', '/chat/roles', 'Creates a custom role.', {
    body: ChatRoleInput,
    response: z.object({ role: ChatRole }),
  }),
  ep('DELETE', '/chat/roles/{name}', 'Deletes an unused custom role.', { response: Empty }),
  ep('GET', '/chat/channeltypes', 'Channel types with their settings and rules.', {
    response: z.object({ channel_types: z.record(z.string(), ChannelType) }),
  }),
  ep('GET', '/chat/channeltypes/{name}', 'One channel type.', { response: ChannelType }),
  ep('POST', '/chat/channeltypes', 'Creates a channel type (server/admin).', {
    body: ChannelTypeCreate,
    response: ChannelType,
  }),
  ep('PUT', '/chat/channeltypes/{name}', 'Changes a type’s settings.', {
    body: ChannelTypeUpdate,
    response: ChannelType,
  }),
  ep('DELETE', '/chat/channeltypes/{name}', 'Deletes an unused, non-built-in type.', { response: Empty }),
  ep(
    'GET',
    '/chat/files/{id}/{name}',
    'A stored file (the original; images resized with ?w=&h=, snapped to the server’s widths, never upscaled). Readable by its owner while unattached, then by whoever may read its message; 404 for everyone else. Token in Authorization or the authorization query parameter. Ranges, ETag, Cache-Control: private; bytes, not JSON.',
    { query: FileQuery },
  ),
  ep(
    'GET',
    '/chat/files/{id}/thumb',
    'The thumbnail of an image or the poster frame of a video (WebP), with the original’s access rule and headers; bytes, not JSON.',
    { query: FileQuery },
  ),
  ...ADMIN_ENDPOINTS,
  ...UPLOAD_ENDPOINTS,
];

/** Shared models, named in the generated docs (schemas refer to them by name). */
export const CHAT_MODELS: Readonly<Record<string, z.ZodType>> = {
  ChatUser,
  OwnUser,
  Message,
  Reaction,
  Channel,
  ChannelMember,
  ChannelState,
  Thread,
  PermissionRule,
  ChatErrorBody,
};
