import type { FastifyInstance } from 'fastify';
import { ChannelTypeCreate, ChannelTypeUpdate, PermissionInput, ChatRoleInput } from '@caseroom/protocol';
import {
  createChannelType,
  deleteChannelType,
  getChannelTypeFor,
  listChannelTypes,
  updateChannelType,
} from '../actions/channel-types.js';
import {
  createRole,
  deletePermission,
  deleteRole,
  getPermission,
  listPermissions,
  listRoles,
  savePermission,
} from '../actions/permissions.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse } from './pipeline.js';

type Id = { Params: { id: string } };
type Name = { Params: { name: string } };

/** Administration (chat-spec §7 Administration): permission rules, roles and channel types. */
export function adminRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.get('/permissions', async (req) => ({ permissions: await listPermissions(ctx, actorOf(req)) }));
  http.get<Id>('/permissions/:id', async (req) => ({
    permission: await getPermission(ctx, actorOf(req), req.params.id),
  }));
  http.post('/permissions', async (req) => ({
    permission: await savePermission(ctx, actorOf(req), parse(PermissionInput, req.body)),
  }));
  http.put<Id>('/permissions/:id', async (req) => ({
    permission: await savePermission(ctx, actorOf(req), parse(PermissionInput, req.body), req.params.id),
  }));
  http.delete<Id>('/permissions/:id', async (req) => {
    await deletePermission(ctx, actorOf(req), req.params.id);
    return {};
  });

  http.get('/roles', async (req) => ({ roles: await listRoles(ctx, actorOf(req)) }));
  http.post('/roles', async (req) => {
    const body = parse(ChatRoleInput, req.body);
    return { role: await createRole(ctx, actorOf(req), body.name, body.scope) };
  });
  http.delete<Name>('/roles/:name', async (req) => {
    await deleteRole(ctx, actorOf(req), req.params.name);
    return {};
  });

  http.get('/channeltypes', async () => ({ channel_types: await listChannelTypes(ctx) }));
  http.get<Name>('/channeltypes/:name', async (req) => getChannelTypeFor(ctx, req.params.name));
  http.post('/channeltypes', async (req) => {
    const { name, ...settings } = parse(ChannelTypeCreate, req.body);
    return createChannelType(ctx, actorOf(req), name, settings);
  });
  http.put<Name>('/channeltypes/:name', async (req) =>
    updateChannelType(ctx, actorOf(req), req.params.name, parse(ChannelTypeUpdate, req.body)),
  );
  http.delete<Name>('/channeltypes/:name', async (req) => {
    await deleteChannelType(ctx, actorOf(req), req.params.name);
    return {};
  });
}
