import type { AnalyticsWeekRow } from '@caseroom/protocol';

/** One week of the report: its case plans' rows (as the server ordered them) and the week's totals. */
export interface ReportWeek {
  week: string;
  rows: AnalyticsWeekRow[];
  chatsOpened: number;
  messagesSent: number;
}

/** Groups the report's rows (newest week first, as answered) by week, with totals per week. */
export function groupByWeek(rows: readonly AnalyticsWeekRow[]): ReportWeek[] {
  const weeks: ReportWeek[] = [];
  for (const row of rows) {
    let week = weeks.at(-1);
    if (week?.week !== row.week) {
      week = { week: row.week, rows: [], chatsOpened: 0, messagesSent: 0 };
      weeks.push(week);
    }
    week.rows.push(row);
    week.chatsOpened += row.chatsOpened;
    week.messagesSent += row.messagesSent;
  }
  return weeks;
}

/** A week's Monday (`YYYY-MM-DD`, UTC) as a date in `language`. */
export function formatWeek(week: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${week}T00:00:00Z`),
  );
}
