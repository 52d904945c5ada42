import { z } from 'zod';
import { SafeRecord } from '../input.js';
import { IsoDate } from './models.js';

/**
 * Requests of the chat HTTP API added for commands, batch tasks, member queries and user administration
 * (issue 5). The server validates with these and docs/chat-api.md is generated from them.
 */

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

/** Command names: lower-case letters, digits, `_` and `-` (typed after `/` in the composer). */
const CommandName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_-]+$/, 'may only contain lower-case letters, digits, "_" and "-"');

/** A slash command (`/chat/commands`). */
export const Command = z.object({
  name: z.string(),
  description: z.string(),
  args: z.string(),
  set: z.string(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Command = z.infer<typeof Command>;

export const CommandCreate = z.object({
  name: CommandName,
  description: z.string().max(255).optional(),
  args: z.string().max(255).optional(),
  set: z.string().max(64).optional(),
});
export const CommandUpdate = CommandCreate.omit({ name: true }).strict();

/** An asynchronous operation (batch deletes): its state and, once done, its result. */
export const Task = z.object({
  task_id: z.string(),
  type: z.string(),
  status: z.enum(['waiting', 'pending', 'completed', 'failed']),
  result: z.record(z.string(), z.unknown()),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Task = z.infer<typeof Task>;

/** At most this many channels or users per batch request. */
export const MAX_BATCH = 100;

/** `POST /chat/channels/delete`. */
export const DeleteChannelsRequest = z.object({
  cids: z.array(z.string().min(1)).min(1).max(MAX_BATCH),
  hard_delete: z.boolean().optional(),
});

/** `GET /chat/members?payload=`: members of one channel. */
export const QueryMembersPayload = z.object({
  type: z.string().min(1),
  id: z.string().min(1),
  filter_conditions: SafeRecord.optional(),
  sort: z
    .array(
      z.object({
        field: z.enum(['name', 'user_id', 'created_at', 'updated_at', 'channel_role']),
        direction: z.union([z.literal(1), z.literal(-1)]),
      }),
    )
    .optional(),
  limit: z.number().int().min(0).max(300).optional(),
  offset: z.number().int().min(0).max(10_000).optional(),
});

/** `DELETE /chat/users/{id}` query. */
export const DeleteUserQuery = z.looseObject({
  hard_delete: flag,
  mark_messages_deleted: flag,
});
const DeleteMode = z.enum(['soft', 'hard']);
/** `POST /chat/users/delete`: several users; `user` and `messages` say how (soft by default). */
export const DeleteUsersRequest = z.object({
  user_ids: z.array(z.string().min(1)).min(1).max(MAX_BATCH),
  user: DeleteMode.optional(),
  messages: DeleteMode.optional(),
});
/** `POST /chat/users/{id}/deactivate` and `/reactivate`. */
export const DeactivateRequest = z.looseObject({
  mark_messages_deleted: z.boolean().optional(),
  created_by_id: z.string().optional(),
});
/** `POST /chat/users/deactivate` and `/reactivate`: several users at once. */
export const DeactivateUsersRequest = DeactivateRequest.extend({
  user_ids: z.array(z.string().min(1)).min(1).max(MAX_BATCH),
});
/** `POST /chat/users/restore`: soft-deleted users come back. */
export const RestoreUsersRequest = z.object({ user_ids: z.array(z.string().min(1)).min(1).max(MAX_BATCH) });
/** `POST /chat/users/block` and `/unblock`. */
export const BlockUserRequest = z.object({
  blocked_user_id: z.string().min(1),
  user_id: z.string().optional(),
});
export const BlockedUsersQuery = z.looseObject({ user_id: z.string().optional() });
export const BlockedUser = z.object({
  user_id: z.string(),
  blocked_user_id: z.string(),
  created_at: IsoDate,
});
/** `POST /chat/users/{id}/event`: a custom event to one user's connections. */
export const UserEventRequest = z.object({
  event: z.looseObject({ type: z.string().min(1).max(64) }),
});
