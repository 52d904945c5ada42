import { UpsertUsersRequest, UserQueryPayload } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { queryUsers } from '../actions/user-query.js';
import { upsertUsers, type UserInput } from '../actions/users.js';
import type { ChatContext } from '../context.js';
import { inputError } from '../errors.js';
import { actorOf, parse } from './pipeline.js';

/** User routes (chat-spec §7 Users): query by `payload` JSON, upsert. */
export function userRoutes(http: FastifyInstance, ctx: ChatContext): void {
  http.get<{ Querystring: { payload?: string } }>('/users', async (req) => {
    let payload: unknown = {};
    if (req.query.payload) {
      try {
        payload = JSON.parse(req.query.payload);
      } catch {
        throw inputError('payload must be JSON');
      }
    }
    return { users: await queryUsers(ctx, actorOf(req), parse(UserQueryPayload, payload)) };
  });

  http.post('/users', async (req) => {
    const { users } = parse(UpsertUsersRequest, req.body);
    const list = (Array.isArray(users) ? users : Object.values(users)) as UserInput[];
    const saved = await upsertUsers(ctx, actorOf(req), list);
    return { users: Object.fromEntries(saved.map((u) => [u.id, u])) };
  });
}
