import type { InviteInfo } from '@caseroom/protocol';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config.js';
import type { Db, Queryable } from '../../platform/db.js';
import { notFound } from '../errors.js';
import { installProductErrorHandler } from '../http/error-handler.js';
import { PUBLIC_LIMITS, publicLimit } from '../http/public-limits.js';
import { verifyInviteToken } from './invite-mail.js';

const TokenQuery = z.object({ token: z.string().min(1).max(300) });

/**
 * What the holder of an open invite's mailed token sees before signing up: organization, inviter and as what.
 * Null for a token not made by this server, an invite that was accepted or cancelled, or one that never was:
 * one answer for all, so nothing can be learnt by guessing.
 */
export async function readInviteInfo(
  q: Queryable,
  secret: string,
  token: string,
): Promise<InviteInfo | null> {
  const inviteId = verifyInviteToken(secret, token);
  if (!inviteId) return null;
  const { rows } = await q.query<InviteInfo>(
    `SELECT o.name AS organization, nullif(trim(COALESCE(p.name, u.name)), '') AS inviter, i.type, i.email
       FROM organization_invites i
       JOIN organizations o ON o.id = i.organization_id
       LEFT JOIN "user" u ON u.id = i.invited_by
       LEFT JOIN profiles p ON p.id = i.invited_by
      WHERE i.id = $1 AND i.accepted_at IS NULL`,
    [inviteId],
  );
  return rows[0] ?? null;
}

/**
 * `GET /api/invite?token=` (public, rate limited per address): the invite card of the login page. The token is
 * a credential, so it travels in the query string, which request logs leave out (a path would be logged).
 */
export async function inviteInfoRoutes(http: FastifyInstance, opts: { db: Db; config: Config }) {
  installProductErrorHandler(http);
  const limit = publicLimit(PUBLIC_LIMITS.invite.points, PUBLIC_LIMITS.invite.seconds);
  http.get('/api/invite', async (req, reply) => {
    await limit.consume(req.ip);
    const { token } = TokenQuery.parse(req.query);
    const info = await readInviteInfo(opts.db, opts.config.authSecret, token);
    if (!info) throw notFound('Invite');
    // The token is a credential: the answer is for this visitor only, never for a shared cache.
    void reply.header('cache-control', 'no-store');
    return info;
  });
}
