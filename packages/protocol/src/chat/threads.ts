import { z } from 'zod';
import { Channel, ChatUser, IsoDate, Message } from './models.js';

export const ThreadParticipant = z.object({
  user_id: z.string(),
  user: ChatUser.optional(),
  /** When they first wrote in the thread (the parent counts). */
  created_at: IsoDate,
  last_thread_message_at: IsoDate.optional(),
});

export const ThreadRead = z.object({
  user: ChatUser,
  last_read: IsoDate,
  last_read_message_id: z.string().optional(),
  unread_messages: z.number(),
});

/** A thread: its parent message, latest replies, participants and read state (chat-spec §3 Thread). */
export const Thread = z.looseObject({
  parent_message_id: z.string(),
  parent_message: Message,
  channel_cid: z.string(),
  channel: Channel.optional(),
  title: z.string().optional(),
  reply_count: z.number(),
  participant_count: z.number(),
  thread_participants: z.array(ThreadParticipant),
  latest_replies: z.array(Message),
  read: z.array(ThreadRead),
  created_at: IsoDate,
  updated_at: IsoDate,
  last_message_at: IsoDate.optional(),
});
export type Thread = z.infer<typeof Thread>;

/** Thread fields a `PATCH /chat/threads/{id}` may not set ("You cannot set X field on Thread object"). */
export const RESERVED_THREAD_FIELDS = [
  'parent_message_id',
  'parent_message',
  'channel_cid',
  'channel',
  'reply_count',
  'participant_count',
  'thread_participants',
  'latest_replies',
  'read',
  'created_at',
  'updated_at',
  'last_message_at',
  'created_by',
  'created_by_user_id',
  'deleted_at',
] as const;

/** `POST /chat/threads` (the caller's threads, newest activity first). */
export const QueryThreadsRequest = z.object({
  limit: z.number().int().min(1).max(100).optional(),
  participant_limit: z.number().int().min(0).max(100).optional(),
  reply_limit: z.number().int().min(0).max(100).optional(),
  watch: z.boolean().optional(),
  next: z.string().optional(),
});
export type QueryThreadsRequest = z.infer<typeof QueryThreadsRequest>;

export const THREAD_DEFAULTS = {
  query: { limit: 10, participant_limit: 10, reply_limit: 3 },
  get: { participant_limit: 100, reply_limit: 3 },
} as const;

export const ThreadUpdatedEvent = z.object({
  type: z.literal('thread.updated'),
  cid: z.string(),
  /** Its number in the channel's sequence (see the events' `seq`). */
  seq: z.number().int().positive().optional(),
  channel_id: z.string().optional(),
  channel_type: z.string().optional(),
  thread: Thread,
  created_at: IsoDate,
});
