/** The report: one table per scenario, with the systems side by side and Caseroom's ratio to each. */

export interface Row {
  metric: string;
  unit: string;
  /** Which way is better, for reading the ratio. */
  better?: 'higher' | 'lower';
  values: Array<number | null>;
}

export interface ScenarioReport {
  id: string;
  title: string;
  description: string;
  columns: string[];
  rows: Row[];
  /** Per column: "ran", or why it did not. */
  ran: Record<string, string>;
  notes: string[];
  raw: Record<string, unknown>;
}

export interface Report {
  date: string;
  command: string;
  mode: 'quick' | 'full';
  durationSeconds: number;
  machine: Record<string, unknown>;
  versions: Record<string, string>;
  pinning: string;
  scenarios: ScenarioReport[];
  notes: string[];
}

const fmt = (v: number | null | undefined): string => {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return String(Math.round(v * 100) / 100);
};

/** Ratio `a ÷ b` (two decimals), or null when either side is missing or b is 0. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (
    a === null ||
    a === undefined ||
    b === null ||
    b === undefined ||
    Number.isNaN(a) ||
    Number.isNaN(b) ||
    b === 0
  )
    return null;
  return Math.round((a / b) * 100) / 100;
}

export function toMarkdown(r: Report): string {
  const out: string[] = [];
  out.push(`# Caseroom benchmark — ${r.date} (${r.mode})`, '');
  out.push(`Command: \`${r.command}\` (${r.durationSeconds} s)`, '');
  out.push(
    `Machine: ${String(r.machine.cores)} cores (${String(r.machine.cpuModel)}), ${String(r.machine.memoryGiB)} GiB, ` +
      `kernel ${String(r.machine.kernel)}, load average at start ${JSON.stringify(r.machine.loadAverageAtStart)}, ` +
      `at end ${JSON.stringify(r.machine.loadAverageAtEnd)}.`,
    '',
  );
  out.push(
    `Versions: ${Object.entries(r.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
  );
  out.push(`Pinning: ${r.pinning}`, '');
  for (const n of r.notes) out.push(`- ${n}`);
  if (r.notes.length) out.push('');
  for (const s of r.scenarios) {
    out.push(`## ${s.title}`, '', s.description, '');
    const others = s.columns.slice(1);
    const head = ['Metric', ...s.columns, ...others.map((c) => `${s.columns[0]} ÷ ${c}`)];
    out.push(`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`);
    for (const row of s.rows) {
      const label = `${row.metric}${row.unit ? ` (${row.unit})` : ''}${row.better ? (row.better === 'higher' ? ' ↑' : ' ↓') : ''}`;
      const cells = row.values.map(fmt);
      const ratios = others.map((_, j) => fmt(ratio(row.values[0], row.values[j + 1])));
      out.push(`| ${[label, ...cells, ...ratios].join(' | ')} |`);
    }
    out.push('');
    out.push(
      `Ran: ${Object.entries(s.ran)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')}.`,
    );
    for (const n of s.notes) out.push(`- ${n}`);
    out.push('');
  }
  out.push('↑ higher is better, ↓ lower is better; "—" = not measured (see "Ran").', '');
  return out.join('\n');
}
