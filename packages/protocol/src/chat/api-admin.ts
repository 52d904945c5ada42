import { z } from 'zod';
import * as A from './admin-requests.js';
import { ep, type ChatEndpoint } from './api-endpoint.js';
import { CustomEvent } from './events.js';
import { ChannelMember, ChatUser, Message } from './models.js';

const Empty = z.object({});
const TaskOut = z.object({ task_id: z.string() });
const UserOut = z.object({ user: ChatUser });
const UsersOut = z.object({ users: z.array(ChatUser) });
const CommandOut = z.object({ command: A.Command });

/** Commands, batch tasks, member queries and user administration (part of CHAT_ENDPOINTS). */
export const ADMIN_ENDPOINTS: readonly ChatEndpoint[] = [
  ep('GET', '/chat/commands', 'Registered slash commands (none built in).', {
    response: z.object({ commands: z.array(A.Command) }),
  }),
  ep('GET', '/chat/commands/{name}', 'One command.', { response: A.Command }),
  ep('POST', '/chat/commands', 'Registers a command (server/admin).', {
    body: A.CommandCreate,
    response: CommandOut,
  }),
  ep('PUT', '/chat/commands/{name}', 'Changes a command (server/admin).', {
    body: A.CommandUpdate,
    response: CommandOut,
  }),
  ep('DELETE', '/chat/commands/{name}', 'Removes a command (server/admin).', {
    response: z.object({ name: z.string() }),
  }),
  ep('POST', '/chat/channels/delete', 'Deletes channels (soft; hard_delete for server/admin) as a task.', {
    body: A.DeleteChannelsRequest,
    response: TaskOut,
  }),
  ep('GET', '/chat/tasks/{id}', 'A task and its per-item result (its creator, server/admin).', {
    response: A.Task,
  }),
  ep('GET', '/chat/members', 'Members of a channel the caller may read (payload JSON).', {
    query: z.object({ payload: z.string().describe('the request as JSON') }),
    body: A.QueryMembersPayload,
    response: z.object({ members: z.array(ChannelMember) }),
  }),
  ep('DELETE', '/chat/users/{id}', 'Deletes a user, soft or hard (server/admin); emits user.deleted.', {
    query: A.DeleteUserQuery,
    response: UserOut,
  }),
  ep('POST', '/chat/users/delete', 'Deletes several users as a task (server/admin).', {
    body: A.DeleteUsersRequest,
    response: TaskOut,
  }),
  ep('POST', '/chat/users/{id}/deactivate', 'Deactivates a user (server/admin); emits user.deactivated.', {
    body: A.DeactivateRequest,
    response: UserOut,
  }),
  ep('POST', '/chat/users/{id}/reactivate', 'Reactivates a user (server/admin); emits user.reactivated.', {
    body: A.DeactivateRequest,
    response: UserOut,
  }),
  ep('POST', '/chat/users/deactivate', 'Deactivates several users (server/admin).', {
    body: A.DeactivateUsersRequest,
    response: UsersOut,
  }),
  ep('POST', '/chat/users/reactivate', 'Reactivates several users (server/admin).', {
    body: A.DeactivateUsersRequest,
    response: UsersOut,
  }),
  ep('POST', '/chat/users/restore', 'Restores soft-deleted users (server/admin).', {
    body: A.RestoreUsersRequest,
    response: UsersOut,
  }),
  ep('GET', '/chat/users/{id}/export', 'A user’s record, messages and reactions (the user, server/admin).', {
    response: z.object({
      user: ChatUser,
      messages: z.array(Message),
      reactions: z.array(z.record(z.string(), z.unknown())),
    }),
  }),
  ep('POST', '/chat/users/block', 'Blocks a user (see Notes).', {
    body: A.BlockUserRequest,
    response: z.object({
      blocked_by_user_id: z.string(),
      blocked_user_id: z.string(),
      created_at: z.string(),
    }),
  }),
  ep('GET', '/chat/users/block', 'The users the caller blocked.', {
    query: A.BlockedUsersQuery,
    response: z.object({ blocks: z.array(A.BlockedUser) }),
  }),
  ep('POST', '/chat/users/unblock', 'Lifts a block.', { body: A.BlockUserRequest, response: Empty }),
  ep('POST', '/chat/users/{id}/event', 'A custom event to the user’s own connections (server/admin).', {
    body: A.UserEventRequest,
    response: z.object({ event: CustomEvent }),
  }),
];
