import { CommandCreate, CommandUpdate, DeleteChannelsRequest, QueryMembersPayload } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { deleteChannels } from '../actions/channel-batch.js';
import {
  createCommand,
  deleteCommand,
  getCommand,
  listCommands,
  updateCommand,
} from '../actions/commands.js';
import { queryMembers } from '../actions/member-query.js';
import { getTask } from '../actions/tasks.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse, parsePayload } from './pipeline.js';

type Name = { Params: { name: string } };

/** Commands, batch channel deletes, tasks and member queries (chat-spec §7 Channels, Users). */
export function batchRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.get('/commands', async () => ({ commands: await listCommands(ctx) }));
  http.get<Name>('/commands/:name', async (req) => getCommand(ctx, req.params.name));
  http.post('/commands', async (req) => {
    const { name, ...input } = parse(CommandCreate, req.body);
    return { command: await createCommand(ctx, actorOf(req), name, input) };
  });
  http.put<Name>('/commands/:name', async (req) => ({
    command: await updateCommand(ctx, actorOf(req), req.params.name, parse(CommandUpdate, req.body)),
  }));
  http.delete<Name>('/commands/:name', async (req) => {
    await deleteCommand(ctx, actorOf(req), req.params.name);
    return { name: req.params.name };
  });

  http.post('/channels/delete', async (req) => {
    const body = parse(DeleteChannelsRequest, req.body);
    return { task_id: await deleteChannels(ctx, actorOf(req), body.cids, body.hard_delete === true) };
  });
  http.get<{ Params: { id: string } }>('/tasks/:id', async (req) =>
    getTask(ctx, actorOf(req), req.params.id),
  );

  http.get<{ Querystring: { payload?: string } }>('/members', async (req) => {
    const query = parsePayload(QueryMembersPayload, req.query.payload);
    return { members: await queryMembers(ctx, actorOf(req), query) };
  });
}
