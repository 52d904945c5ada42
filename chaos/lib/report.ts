import { mustBeZero } from './figures.js';
import type { ChaosResult } from './scenario.js';

/** The run as Markdown: the four figures that must be 0 first, then what explains them, then information. */
export function toMarkdown(
  result: ChaosResult,
  meta: { mode: string; date: string; commit: string; machine: string },
): string {
  const f = result.figures;
  const o = result.options;
  const zero = mustBeZero(f);
  const ok = Object.values(zero).every((v) => v === 0);
  const lines: string[] = [];
  const table = (rows: [string, string | number][]) => {
    lines.push('| figure | value |', '| --- | --- |');
    for (const [k, v] of rows) lines.push(`| ${k} | ${v} |`);
    lines.push('');
  };
  lines.push(`# Chaos run ${meta.date} (${meta.mode})`, '');
  lines.push(
    `Commit \`${meta.commit}\`, ${meta.machine}. ${o.nodes} server processes on one PostgreSQL database and a private ` +
      `Redis; ${o.channels} channels, each with one sender per node (${o.rate} messages/s each) and ${o.receivers} SDK ` +
      `receiver(s) per node; ${o.kills} SIGKILLs of a node under load (restarted each time) and Redis ` +
      `${o.redisMode === 'stop' ? 'killed and started again' : 'frozen (SIGSTOP)'} once for ${o.redisSeconds} s.`,
    '',
  );
  lines.push(`**Result: ${ok ? 'PASS, all four figures are 0' : 'FAIL'}.**`, '');
  lines.push('## Must be 0', '');
  table(Object.entries(zero));
  const kinds = Object.entries(f.neverRecoveredByKind);
  if (kinds.length) {
    lines.push('Events never recovered, by the fault around their send:', '');
    table(kinds);
    lines.push('By receiver and acknowledgement of the send:', '');
    table(Object.entries(f.neverRecoveredByReceiver));
  }
  for (const [key, list] of Object.entries(f.examples)) {
    lines.push(`Examples (${key}):`, '', ...list.map((l) => `- \`${l}\``), '');
  }
  lines.push('## Information', '');
  table([
    ['messages on the server at the end', result.messagesOnServer],
    ['sends attempted / acknowledged', `${result.sends.attempted} / ${result.sends.acknowledged}`],
    ['sends refused or failed during the Redis stop', result.sends.refusedDuringRedis],
    ['sends failed otherwise (node kills)', result.sends.failedOther],
    [
      'send outcomes',
      Object.entries(result.outcomes)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
    ],
    ['load duration (s)', result.loadSeconds],
    ['throughput (acknowledged messages/s)', result.throughput],
    [
      'acknowledged send latency p50 / p99 / max (ms)',
      `${result.sendLatency.p50} / ${result.sendLatency.p99} / ${result.sendLatency.max}`,
    ],
    ['receiver outages recovered', result.recovery.count],
    [
      'recovery time p50 / p99 / max (ms)',
      `${result.recovery.p50} / ${result.recovery.p99} / ${result.recovery.max}`,
    ],
    ['node restart, kill to healthy (ms)', result.restartMs.join(', ')],
    ['messages shown by a receiver and not on the server (ghosts)', f.ghosts],
    ['messages shown right after one the server places after them', `${f.misplacedPercent} %`],
    ['receivers whose final screen is out of order', f.finalScreensOutOfOrder],
    [
      'quiescence (s); every receiver caught up',
      `${result.settle.seconds}; ${result.settle.complete ? 'yes' : 'no'}`,
    ],
    ['error log lines per node (last 20 kB)', result.nodeErrorLines.join(', ')],
  ]);
  const warnings = Object.entries(result.sdkWarnings);
  if (warnings.length) {
    lines.push("The receivers' SDK logged (warnings and errors, all receivers):", '');
    table(warnings);
  }
  lines.push('## Receivers', '');
  lines.push(
    '| receiver | home node | outages | messages shown | duplicates | order differences | never recovered |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of f.perReceiver)
    lines.push(
      `| ${r.user} | ${r.home} | ${r.outages} | ${r.shown} | ${r.duplicates} | ${r.orderDifferences} | ${r.neverRecovered} |`,
    );
  lines.push('');
  lines.push('## Faults (ms since the load started)', '');
  for (const fault of result.faults)
    lines.push(
      fault.kind === 'kill'
        ? `- ${fault.at}: SIGKILL node ${fault.node}, healthy again at ${fault.upAt}`
        : `- ${fault.at}: redis ${fault.mode}, back at ${fault.upAt}`,
    );
  lines.push('', '## Method', '');
  lines.push(
    'Each send is recorded when its HTTP answer arrives; acknowledged means 200/201. Receivers are `@caseroom/sdk` ' +
      'ChatClients behind a TCP balancer with a home node (when their node dies, the connection closes and the SDK ' +
      "reconnects through the balancer to a live node). Every snapshot of each receiver's channel state is observed: " +
      'a duplicate is an id twice in one message set; an order difference is a pair of neighbours shown in the order ' +
      "opposite to the server's keyset pages (`messages.id_lt`, 300 a page, read at the end); a message never " +
      "recovered is one the server's pages hold that never appeared in the receiver's state. After the load, the run " +
      'waits until every receiver is online, sends one last message per channel on the steady cluster, and waits until ' +
      'every receiver holds every message or none progresses for 5 s.',
    '',
  );
  return lines.join('\n');
}
