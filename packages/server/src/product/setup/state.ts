import type { Queryable } from '../../platform/db.js';

/** How long an unfinished setup claim blocks others (a process that died half way frees it after this). */
export const SETUP_CLAIM_TTL_SECONDS = 120;

/** Whether the installation still waits for its first person: no account exists yet. */
export async function setupNeeded(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ needed: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM "user") AS needed');
  return rows[0]?.needed === true;
}

/**
 * Takes the one setup row for `claim` (a random id of this request). Answers false when another request holds
 * it (or setup completed): one atomic upsert, so of two concurrent requests exactly one gets it.
 */
export async function claimSetup(q: Queryable, claim: string): Promise<boolean> {
  const { rows } = await q.query<{ claim: string }>(
    `INSERT INTO instance_setup (id, claim) VALUES (true, $1)
     ON CONFLICT (id) DO UPDATE SET claim = EXCLUDED.claim, started_at = now()
      WHERE instance_setup.completed_at IS NULL
        AND instance_setup.started_at < now() - make_interval(secs => $2)
     RETURNING claim`,
    [claim, SETUP_CLAIM_TTL_SECONDS],
  );
  return rows[0]?.claim === claim;
}

/** Gives the claim back after a refused sign-up, so the person can correct their input and try again. */
export async function releaseSetup(q: Queryable, claim: string): Promise<void> {
  await q.query('DELETE FROM instance_setup WHERE claim = $1 AND completed_at IS NULL', [claim]);
}

/** Marks setup done (in the transaction that made the organization): the row stays, setup never runs again. */
export async function completeSetup(
  q: Queryable,
  claim: string,
  done: { userId: string; organizationId: string },
): Promise<void> {
  const { rowCount } = await q.query(
    `UPDATE instance_setup SET completed_at = now(), user_id = $2, organization_id = $3
      WHERE claim = $1 AND completed_at IS NULL`,
    [claim, done.userId, done.organizationId],
  );
  if (rowCount === 0) throw new Error('the setup claim was lost before setup completed');
}
