import {
  BlockedUsersQuery,
  BlockUserRequest,
  DeactivateRequest,
  DeactivateUsersRequest,
  DeleteUserQuery,
  DeleteUsersRequest,
  RestoreUsersRequest,
  UserEventRequest,
} from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { blockUser, listBlocks, sendUserEvent, unblockUser } from '../actions/blocks.js';
import { deleteUser, deleteUsers, exportUser, restoreUsers, setDeactivated } from '../actions/user-admin.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse } from './pipeline.js';

type Id = { Params: { id: string } };

/** User administration, blocks and user events (chat-spec §7 Users). */
export function userAdminRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.delete<Id>('/users/:id', async (req) => {
    const q = parse(DeleteUserQuery, req.query);
    const user = await deleteUser(ctx, actorOf(req), req.params.id, {
      hard: q.hard_delete,
      markMessagesDeleted: q.mark_messages_deleted,
    });
    return { user };
  });
  http.post('/users/delete', async (req) => {
    const body = parse(DeleteUsersRequest, req.body);
    const taskId = await deleteUsers(ctx, actorOf(req), body.user_ids, body.user ?? 'soft', body.messages);
    return { task_id: taskId };
  });
  http.post<Id>('/users/:id/deactivate', async (req) => {
    const body = parse(DeactivateRequest, req.body);
    const [user] = await setDeactivated(ctx, actorOf(req), [req.params.id], true, body.mark_messages_deleted);
    return { user };
  });
  http.post<Id>('/users/:id/reactivate', async (req) => {
    parse(DeactivateRequest, req.body);
    const [user] = await setDeactivated(ctx, actorOf(req), [req.params.id], false);
    return { user };
  });
  http.post('/users/deactivate', async (req) => {
    const body = parse(DeactivateUsersRequest, req.body);
    const users = await setDeactivated(ctx, actorOf(req), body.user_ids, true, body.mark_messages_deleted);
    return { users };
  });
  http.post('/users/reactivate', async (req) => {
    const body = parse(DeactivateUsersRequest, req.body);
    return { users: await setDeactivated(ctx, actorOf(req), body.user_ids, false) };
  });
  http.post('/users/restore', async (req) => {
    const body = parse(RestoreUsersRequest, req.body);
    return { users: await restoreUsers(ctx, actorOf(req), body.user_ids) };
  });
  http.get<Id>('/users/:id/export', async (req) => exportUser(ctx, actorOf(req), req.params.id));

  http.post('/users/block', async (req) => {
    const body = parse(BlockUserRequest, req.body);
    return blockUser(ctx, actorOf(req), body.blocked_user_id, body.user_id);
  });
  http.get('/users/block', async (req) => {
    const q = parse(BlockedUsersQuery, req.query);
    return { blocks: await listBlocks(ctx, actorOf(req), q.user_id) };
  });
  http.post('/users/unblock', async (req) => {
    const body = parse(BlockUserRequest, req.body);
    await unblockUser(ctx, actorOf(req), body.blocked_user_id, body.user_id);
    return {};
  });
  http.post<Id>('/users/:id/event', async (req) => {
    const body = parse(UserEventRequest, req.body);
    return sendUserEvent(ctx, actorOf(req), req.params.id, body.event);
  });
}
