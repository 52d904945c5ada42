import crypto from 'node:crypto';
import type { SetupData, SetupResult } from '@caseroom/protocol';
import type { ChatServerApi } from '../../chat/server-api.js';
import { txWithChat } from '../../chat/server-tx.js';
import type { Db } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import { recordAudit } from '../audit/record.js';
import { APIError, CLIENT_IP_HEADER, type Auth } from '../auth/auth.js';
import { syncChatUsers } from '../caseplans/chat-links.js';
import { ProductError } from '../errors.js';
import { createOrganization } from '../organizations/create.js';
import { upsertMember } from '../organizations/membership.js';
import { recordSelection } from '../session/state.js';
import { ensureProfile } from '../users/profiles.js';
import { claimSetup, completeSetup, releaseSetup, setupNeeded } from './state.js';

/** What setup needs: the auth instance (its sign-up path makes the account), the database, chat. */
export interface SetupDeps {
  auth: Auth;
  db: Db;
  chat: ChatServerApi;
  log: Logger;
}

/** A finished setup: the answer body and the sign-up's headers (session cookie, `set-auth-token`). */
export interface SetupOutcome {
  result: SetupResult;
  headers: Headers;
}

const alreadySetUp = () =>
  new ProductError(
    'already-exists',
    'Caseroom is already set up',
    'This Caseroom is already set up. Sign in, or ask your organization for an invitation.',
  );

/**
 * The first run (issue 15): creates the first account through the ordinary sign-up path (better-auth: same
 * password rules, hashing, verification mail, session), makes it super-admin, creates the organization with
 * them as its admin, and answers a signed-in session. Only while no account exists, and only once: the
 * `instance_setup` row is claimed first, so of concurrent requests exactly one proceeds.
 */
export async function runSetup(deps: SetupDeps, data: SetupData, clientIp: string): Promise<SetupOutcome> {
  const { auth, db, chat, log } = deps;
  if (!(await setupNeeded(db))) throw alreadySetUp();
  const claim = crypto.randomUUID();
  if (!(await claimSetup(db, claim))) throw alreadySetUp();

  let signedUp: Awaited<ReturnType<typeof signUp>>;
  try {
    signedUp = await signUp(auth, data, clientIp);
  } catch (err) {
    await releaseSetup(db, claim);
    throw err;
  }
  const { user, token } = signedUp.response;
  try {
    const organizationId = await txWithChat(db, chat, async (q, chatInTx) => {
      await ensureProfile(q, user.id);
      await q.query('UPDATE profiles SET sadmin = true, updated = now() WHERE id = $1', [user.id]);
      const organizationId = await createOrganization(q, user.id, { name: data.organizationName });
      await upsertMember(q, organizationId, user.id, 'admin');
      await recordAudit(q, {
        organizationId,
        actorId: user.id,
        action: 'instance.setup',
        entity: 'membership',
        entityId: user.id,
        after: { type: 'admin', sadmin: true },
      });
      await recordSelection(q, user.id, { organizationId });
      await completeSetup(q, claim, { userId: user.id, organizationId });
      await syncChatUsers(chatInTx, q, [user.id]);
      return organizationId;
    });
    return {
      result: {
        token: token ?? '',
        user: { id: user.id, email: user.email, name: user.name },
        organizationId,
      },
      headers: signedUp.headers,
    };
  } catch (err) {
    // The account without its organization would leave a dead end (setup no longer offered, nobody to invite
    // anyone): remove it, so the first person can run setup again.
    log.error({ err }, 'first-run setup failed after sign-up; removing the account');
    await db
      .query('DELETE FROM "user" WHERE id = $1', [user.id])
      .catch((cleanup: unknown) => log.error({ err: cleanup }, 'removing the half-set-up account failed'));
    await releaseSetup(db, claim);
    throw err;
  }
}

/** The ordinary e-mail sign-up, as the server (so it passes the "setup first" guard), keyed on the client. */
async function signUp(auth: Auth, data: SetupData, clientIp: string) {
  try {
    return await auth.api.signUpEmail({
      body: { email: data.email, password: data.password, name: data.name },
      headers: new Headers({ [CLIENT_IP_HEADER]: clientIp }),
      returnHeaders: true,
    });
  } catch (err) {
    if (err instanceof APIError) {
      const status = err.statusCode === 429 ? 'resource-exhausted' : 'invalid-argument';
      throw new ProductError(status, err.message || 'Sign-up refused');
    }
    throw err;
  }
}
