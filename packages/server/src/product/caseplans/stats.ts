import type { CaseplanUserStats } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** `GET /api/caseplans/{id}/stats`: per-user statistics of the case plan (product-spec §3), by user id. */
export async function readCaseplanStats(q: Queryable, caseplanId: string): Promise<CaseplanUserStats[]> {
  const { rows } = await q.query<{
    user_id: string;
    last_opened_at: Date | null;
    last_message_sent_at: Date | null;
    last_message_to_client_at: Date | null;
    updated: Date;
  }>(
    `SELECT user_id, last_opened_at, last_message_sent_at, last_message_to_client_at, updated
       FROM caseplan_stats WHERE caseplan_id = $1 ORDER BY user_id`,
    [caseplanId],
  );
  return rows.map((r) => ({
    user: r.user_id,
    lastOpenedAt: iso(r.last_opened_at),
    lastMessageSentAt: iso(r.last_message_sent_at),
    lastMessageToClientAt: iso(r.last_message_to_client_at),
    updated: new Date(r.updated).toISOString(),
  }));
}
