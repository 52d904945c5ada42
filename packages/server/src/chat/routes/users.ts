import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { queryUsers } from '../actions/user-query.js';
import { upsertUsers, type UserInput } from '../actions/users.js';
import type { ChatContext } from '../context.js';
import { inputError } from '../errors.js';
import { actorOf, parse } from './pipeline.js';

const UserQuery = z.object({
  filter_conditions: z.record(z.string(), z.unknown()).optional(),
  sort: z
    .array(z.object({ field: z.string(), direction: z.union([z.literal(1), z.literal(-1)]) }))
    .optional(),
  limit: z.number().int().min(0).max(100).optional(),
  offset: z.number().int().min(0).optional(),
});
const UserShape = z.looseObject({ id: z.string().min(1).max(255) });
const UpsertRequest = z.object({
  users: z.union([z.record(z.string(), UserShape), z.array(UserShape)]),
});

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
    return { users: await queryUsers(ctx, actorOf(req), parse(UserQuery, payload)) };
  });

  http.post('/users', async (req) => {
    const { users } = parse(UpsertRequest, req.body);
    const list = (Array.isArray(users) ? users : Object.values(users)) as UserInput[];
    const saved = await upsertUsers(ctx, actorOf(req), list);
    return { users: Object.fromEntries(saved.map((u) => [u.id, u])) };
  });
}
