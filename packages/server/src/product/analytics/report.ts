import type { AnalyticsReport } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';

/** Monday 00:00 UTC of the week `weeks - 1` weeks before the week of `now` (so `weeks` whole weeks, this one included). */
export function reportStart(now: Date, weeks: number): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - sinceMonday - 7 * (weeks - 1));
  return day;
}

interface ReportRow {
  week: string;
  caseplan: string | null;
  caseplan_name: string | null;
  chats_opened: number;
  messages_sent: number;
}

/**
 * `GET /api/organizations/{id}/analytics`: chats opened and messages sent per ISO week (UTC) and case plan, newest
 * week first. An event of a chat with several case plans counts for each; a chat with none counts under
 * `caseplan: null`. Weeks and case plans without events have no row. The caller has been authorized
 * (`organizations.analytics`).
 */
export async function readAnalyticsReport(
  q: Queryable,
  organizationId: string,
  weeks: number,
  now = new Date(),
): Promise<AnalyticsReport> {
  const from = reportStart(now, weeks);
  const { rows } = await q.query<ReportRow>(
    `SELECT to_char(date_trunc('week', e.at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week,
            cp.id AS caseplan,
            c.name AS caseplan_name,
            count(*) FILTER (WHERE e.name = 'chat_opened')::int AS chats_opened,
            count(*) FILTER (WHERE e.name = 'chat_message_sent')::int AS messages_sent
       FROM analytics_events e
       CROSS JOIN LATERAL unnest(
         CASE WHEN cardinality(e.caseplan_ids) = 0 THEN ARRAY[NULL]::text[] ELSE e.caseplan_ids END
       ) AS cp(id)
       -- Names only of the organization's own plans (the ids come from the chat's server-set data anyway).
       LEFT JOIN caseplans c ON c.id = cp.id AND c.organization_id = e.organization_id
      WHERE e.organization_id = $1 AND e.at >= $2
      GROUP BY 1, 2, 3
      ORDER BY 1 DESC, 3 NULLS LAST, 2 NULLS LAST`,
    [organizationId, from],
  );
  return {
    organization: organizationId,
    from: from.toISOString().slice(0, 10),
    weeks,
    rows: rows.map((r) => ({
      week: r.week,
      caseplan: r.caseplan,
      caseplanName: r.caseplan_name,
      chatsOpened: Number(r.chats_opened),
      messagesSent: Number(r.messages_sent),
    })),
  };
}
