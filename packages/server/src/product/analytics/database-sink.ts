import type { AnalyticsEvent } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { AnalyticsSink } from './sink.js';

/** The default sink: rows of `analytics_events` (migration 0033), read by the weekly report. */
export function databaseSink(q: Queryable): AnalyticsSink {
  return {
    name: 'database',
    async record(events) {
      if (events.length === 0) return;
      // One statement for the batch; caseplan_ids travel as JSON (arrays of arrays do not unnest into text[] rows).
      await q.query(
        `INSERT INTO analytics_events (name, organization_id, caseplan_ids, user_id, cid, at)
         SELECT e.name, e.organization, ARRAY(SELECT jsonb_array_elements_text(e.caseplans)), e.user_id, e.cid, e.at
           FROM jsonb_to_recordset($1::jsonb)
             AS e(name text, organization text, caseplans jsonb, user_id text, cid text, at timestamptz)`,
        [JSON.stringify(events.map((e: AnalyticsEvent) => ({ ...e, user_id: e.user, cid: e.channel })))],
      );
    },
    async close() {},
  };
}
