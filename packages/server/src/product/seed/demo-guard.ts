import type { ChatServerApi } from '../../chat/server-api.js';
import type { Queryable } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import { verifyPassword } from '../auth/password.js';
import { DEMO_PASSWORD, DEMO_PEOPLE } from './demo-data.js';

/**
 * A production server never keeps an account that signs in with the published demo password: for each demo
 * address whose password still is `caseroom-demo`, the password is removed (the person may set a new one
 * through "Forgot password" if the address is real) and every session of the account ends. The server starts
 * anyway, so a database that once had demo data does not keep a deployment down; the warning names the
 * accounts. Answers the addresses it disabled.
 */
export async function disableDemoPasswords(
  q: Queryable,
  chat: Pick<ChatServerApi, 'disconnectUser'>,
  log: Logger,
): Promise<string[]> {
  const { rows } = await q.query<{ user_id: string; email: string; password: string | null }>(
    `SELECT u.id AS user_id, u.email, a.password
       FROM "user" u JOIN account a ON a."userId" = u.id AND a."providerId" = 'credential'
      WHERE lower(u.email) = ANY($1::text[])`,
    [DEMO_PEOPLE.map((p) => p.email.toLowerCase())],
  );
  const disabled: string[] = [];
  for (const row of rows) {
    if (!row.password || !(await verifyPassword({ hash: row.password, password: DEMO_PASSWORD }))) continue;
    await q.query(`DELETE FROM account WHERE "userId" = $1 AND "providerId" = 'credential'`, [row.user_id]);
    await q.query('DELETE FROM session WHERE "userId" = $1', [row.user_id]);
    await chat.disconnectUser(row.user_id);
    disabled.push(row.email);
  }
  if (disabled.length > 0) {
    log.warn(
      { accounts: disabled },
      'production: demo accounts had the published demo password; their passwords were removed and their sessions ended',
    );
  }
  return disabled;
}
