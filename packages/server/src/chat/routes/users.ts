import { UpsertUsersRequest, UserQueryPayload } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { queryUsers } from '../actions/user-query.js';
import { upsertUsers, type UserInput } from '../actions/users.js';
import type { ChatContext } from '../context.js';
import { actorOf, parse, parsePayload } from './pipeline.js';

/** User routes (chat-spec §7 Users): query by `payload` JSON, upsert. */
export function userRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.get<{ Querystring: { payload?: string } }>('/users', async (req) => {
    return {
      users: await queryUsers(ctx, actorOf(req), parsePayload(UserQueryPayload, req.query.payload, {})),
    };
  });

  http.post('/users', async (req) => {
    const { users } = parse(UpsertUsersRequest, req.body);
    const list = (Array.isArray(users) ? users : Object.values(users)) as UserInput[];
    const saved = await upsertUsers(ctx, actorOf(req), list);
    return { users: Object.fromEntries(saved.map((u) => [u.id, u])) };
  });
}
