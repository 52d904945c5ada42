import type { Driver } from '../lib/driver.js';
import { GENERATOR_SATURATED_PCT } from '../lib/proc.js';
import type { Row, ScenarioReport } from '../lib/report.js';
import { CaseroomDriver, ROOT } from '../systems/caseroom.js';
import { startEjabberd } from '../systems/ejabberd.js';
import { EjabberdClusterDriver, startEjabberdCluster } from '../systems/ejabberd-cluster.js';
import { startProsody } from '../systems/prosody.js';
import type { XmppDriver } from '../systems/xmpp.js';
import { runDurable, type DurableOptions, type DurableResult } from './durable.js';
import { runFanout, type FanoutOptions, type FanoutResult } from './fanout.js';
import {
  depthOf,
  runHistory,
  runXmppHistory,
  type HistoryOptions,
  type HistoryResult,
  type TimedCall,
} from './history.js';
import { runIdle, type IdleOptions, type IdleResult } from './idle.js';
import { runReconnect, type ReconnectOptions, type ReconnectResult } from './reconnect.js';
import { measureBundle } from './web.js';
import {
  runLighthouse,
  type LighthouseOptions,
  type LighthouseResult,
  type LighthouseRun,
} from './lighthouse.js';
import { measureScrollFps, startWebServer, type FpsOptions, type WebServer } from './web-fps.js';

/** The seven scenarios of issue 8, each run against every system that offers it, one fresh server at a time. */

export interface Sizes {
  fanout: FanoutOptions;
  durable: DurableOptions;
  idle: IdleOptions;
  history: HistoryOptions;
  reconnect: ReconnectOptions;
  fps: FpsOptions;
  lighthouse: LighthouseOptions;
}

export type SystemName = 'Caseroom' | 'ejabberd' | 'Prosody';

export interface SuiteContext {
  sizes: Sizes;
  systems: SystemName[];
  log(message: string): void;
}

async function start(name: SystemName, archive: boolean, nodes = 1): Promise<Driver> {
  if (name === 'Caseroom') return CaseroomDriver.start({ nodes });
  if (name === 'ejabberd') return startEjabberd({ archive });
  return startProsody({ archive });
}

/** Runs `fn` on a fresh instance of each system; a failure empties that column and says why. */
async function perSystem<T>(
  ctx: SuiteContext,
  archive: boolean,
  fn: (driver: Driver) => Promise<T>,
): Promise<{ results: Map<SystemName, T>; ran: Record<string, string> }> {
  const results = new Map<SystemName, T>();
  const ran: Record<string, string> = {};
  for (const name of ctx.systems) {
    ctx.log(`  ${name}`);
    let driver: Driver | undefined;
    try {
      driver = await start(name, archive);
      results.set(name, await fn(driver));
      ran[name] = 'ran';
    } catch (err) {
      ran[name] = `failed: ${(err as Error).message.split('\n')[0]?.slice(0, 300)}`;
      ctx.log(`  ${name} failed: ${(err as Error).stack ?? String(err)}`);
    } finally {
      await driver?.stop().catch(() => undefined);
    }
  }
  return { results, ran };
}

const col = <T>(ctx: SuiteContext, results: Map<SystemName, T>, pick: (r: T) => number | undefined) =>
  ctx.systems.map((s) => {
    const r = results.get(s);
    const v = r === undefined ? undefined : pick(r);
    return v === undefined || Number.isNaN(v) ? null : v;
  });

function saturationNotes(
  ctx: SuiteContext,
  results: Map<SystemName, { generatorSaturated?: boolean }>,
): string[] {
  return ctx.systems
    .filter((s) => results.get(s)?.generatorSaturated)
    .map(
      (s) =>
        `${s}: the load generator saturated its core (≥ ${GENERATOR_SATURATED_PCT}% CPU); the figure is a lower bound of the server's capacity.`,
    );
}

export async function fanout(ctx: SuiteContext): Promise<ScenarioReport> {
  const o = ctx.sizes.fanout;
  const { results, ran } = await perSystem(ctx, false, (d) => runFanout(d, o));
  const best = (pick: (r: FanoutResult) => number | undefined) => col(ctx, results, pick);
  const rows: Row[] = [
    {
      metric: 'Highest deliveries/s with p99 ≤ 100 ms',
      unit: '/s',
      better: 'higher',
      values: best((r) => r.best?.deliveriesPerSec ?? 0),
    },
    {
      metric: 'Messages/s at that step',
      unit: '/s',
      better: 'higher',
      values: best((r) => r.best?.rate ?? 0),
    },
    {
      metric: 'p50 latency at that step',
      unit: 'ms',
      better: 'lower',
      values: best((r) => r.best?.latency.p50),
    },
    {
      metric: 'p99 latency at that step',
      unit: 'ms',
      better: 'lower',
      values: best((r) => r.best?.latency.p99),
    },
    {
      metric: 'p99.9 latency at that step',
      unit: 'ms',
      better: 'lower',
      values: best((r) => r.best?.latency.p999),
    },
    { metric: 'Server CPU at that step', unit: '% of a core', values: best((r) => r.best?.serverCpu) },
    { metric: 'Database CPU at that step', unit: '% of a core', values: best((r) => r.best?.dbCpu) },
    {
      metric: 'Lost deliveries (all steps)',
      unit: '',
      better: 'lower',
      values: best((r) => r.steps.reduce((a, s) => a + s.lost, 0)),
    },
    {
      metric: 'Reordered deliveries (all steps)',
      unit: '',
      better: 'lower',
      values: best((r) => r.steps.reduce((a, s) => a + s.reordered, 0)),
    },
    {
      metric: 'Duplicate deliveries (all steps)',
      unit: '',
      better: 'lower',
      values: best((r) => r.steps.reduce((a, s) => a + s.duplicates, 0)),
    },
    { metric: 'Server RSS', unit: 'MB', better: 'lower', values: best((r) => r.serverRssMB) },
    {
      metric: 'Generator CPU, busiest step',
      unit: '% of a core',
      values: best((r) => Math.max(...r.steps.map((s) => s.generatorCpu))),
    },
  ];
  const notes = [
    `${o.members} members connected and watching one channel (MUC room, no history on join); one sender; rates tried: ${o.rates.join(', ')} msgs/s, ${o.stepSeconds} s each, stopping at the first step that fails (p99 > 100 ms, a loss or a send error).`,
    ...ctx.systems.flatMap((s) => {
      const failed = results.get(s)?.steps.find((x) => !x.passed);
      return failed
        ? [
            `${s} first failed at ${failed.rate} msgs/s: p99 ${failed.latency.p99} ms, lost ${failed.lost}, server CPU ${failed.serverCpu}%.`,
          ]
        : [];
    }),
    ...saturationNotes(ctx, results),
  ];
  return {
    id: 'fanout',
    title: '1. Fan-out',
    description: 'Send-to-receive latency in one channel of many connected members, rate stepped up.',
    columns: ctx.systems,
    rows,
    ran,
    notes,
    raw: Object.fromEntries(results),
  };
}

function durableRows(ctx: SuiteContext, results: Map<SystemName, DurableResult>): Row[] {
  const c = (pick: (r: DurableResult) => number) => col(ctx, results, pick);
  return [
    { metric: 'Acknowledged messages/s', unit: '/s', better: 'higher', values: c((r) => r.ackedPerSec) },
    { metric: 'Ack p50', unit: 'ms', better: 'lower', values: c((r) => r.ack.p50) },
    { metric: 'Ack p99', unit: 'ms', better: 'lower', values: c((r) => r.ack.p99) },
    { metric: 'Ack p99.9', unit: 'ms', better: 'lower', values: c((r) => r.ack.p999) },
    { metric: 'Delivery p99', unit: 'ms', better: 'lower', values: c((r) => r.delivery.p99) },
    { metric: 'Lost deliveries', unit: '', better: 'lower', values: c((r) => r.lost) },
    { metric: 'Server CPU', unit: '% of a core', values: c((r) => r.serverCpu) },
    { metric: 'Database CPU', unit: '% of a core', values: c((r) => r.dbCpu) },
    { metric: 'Generator CPU', unit: '% of a core', values: c((r) => r.generatorCpu) },
  ];
}

export async function durable(ctx: SuiteContext): Promise<ScenarioReport> {
  const o = ctx.sizes.durable;
  const { results, ran } = await perSystem(ctx, true, (d) => runDurable(d, o));
  return {
    id: 'durable',
    title: '2. Durable sends',
    description:
      'Closed-loop senders, one per channel; a message counts once it is acknowledged after it was persisted.',
    columns: ctx.systems,
    rows: durableRows(ctx, results),
    ran,
    notes: [
      `${o.rooms} channels (rooms) of ${o.roomSize} connected members, ${o.rooms} senders, ${o.seconds} s.`,
      'Caseroom acknowledges with the HTTP answer after the PostgreSQL commit (synchronous_commit as the server is configured). ejabberd archives with mod_mam and Prosody with mod_muc_mam, both in PostgreSQL (the same server as Caseroom uses, a fresh database per run; ejabberd through its pgsql driver with a pool of 10, Prosody through mod_storage_sql and LuaDBI); their acknowledgement is the room reflecting the message back to its sender, after the archive hook ran.',
      ...saturationNotes(ctx, results),
    ],
    raw: Object.fromEntries(results),
  };
}

export async function idle(ctx: SuiteContext): Promise<ScenarioReport> {
  const o = ctx.sizes.idle;
  const { results, ran } = await perSystem(ctx, false, (d) => runIdle(d, o));
  const c = (pick: (r: IdleResult) => number) => col(ctx, results, pick);
  return {
    id: 'idle',
    title: '3. Idle connections',
    description:
      'Authenticated sockets that stay idle: server memory per connection (RSS growth ÷ sockets) and idle CPU.',
    columns: ctx.systems,
    rows: [
      { metric: 'Connected', unit: '', better: 'higher', values: c((r) => r.connected) },
      {
        metric: 'Memory per connection',
        unit: 'KB',
        better: 'lower',
        values: c((r) => r.bytesPerConnection / 1024),
      },
      { metric: 'Idle CPU', unit: '% of a core', better: 'lower', values: c((r) => r.idleCpu) },
      {
        metric: 'Server RSS with every socket open',
        unit: 'MB',
        better: 'lower',
        values: c((r) => r.rssAfterMB),
      },
      { metric: 'Time to connect them all', unit: 's', better: 'lower', values: c((r) => r.connectSeconds) },
    ],
    ran,
    notes: [
      `${o.count} sockets, idle CPU over ${o.idleSeconds} s. The container caps open files at 20,000 per process (hard limit, not raisable here), so the full run opens 19,000, not 20,000.`,
      'XMPP clients register in-band and log in with SASL PLAIN (plain-text password store, so no hashing cost), bind and send initial presence; Caseroom clients open the WebSocket with a JWT and receive health.check.',
    ],
    raw: Object.fromEntries(results),
  };
}

export async function history(ctx: SuiteContext): Promise<ScenarioReport> {
  const o = ctx.sizes.history;
  // The peers with their archive on (in PostgreSQL); the archive is what they are queried on.
  const { results, ran } = await perSystem(ctx, true, (d) =>
    d.name === 'Caseroom' ? runHistory(d as CaseroomDriver, o) : runXmppHistory(d as XmppDriver, o),
  );
  const c = (pick: (r: HistoryResult) => number | undefined) => col(ctx, results, pick);
  const depth = depthOf(o.messages).toLocaleString('en-US');
  const calls: [string, (r: HistoryResult) => TimedCall | undefined][] = [
    ['Latest page (25)', (r) => r.latestPage],
    [`Page ${depth} deep (25)`, (r) => r.deepPage],
    ['Jump to message (25 around it)', (r) => r.jump],
    ['Query channels with unread counts (25 channels, 25 messages each)', (r) => r.channelList],
  ];
  const rows: Row[] = [
    ...calls.flatMap(([metric, call]) =>
      (['p50', 'p99'] as const).map((p) => ({
        metric: `${metric} ${p}`,
        unit: 'ms',
        better: 'lower' as const,
        values: c((r) => call(r)?.[p]),
      })),
    ),
    ...calls.flatMap(([metric, call]) =>
      (['p50', 'p99'] as const).map((p) => ({
        metric: `${metric}: server time (Server-Timing) ${p}`,
        unit: 'ms',
        better: 'lower' as const,
        values: c((r) => call(r)?.serverTime?.[p]),
      })),
    ),
    ...calls.flatMap(([metric, call]) => [
      { metric: `${metric}: server CPU per call`, unit: 'ms', values: c((r) => call(r)?.serverCpuMsPerCall) },
      { metric: `${metric}: database CPU per call`, unit: 'ms', values: c((r) => call(r)?.dbCpuMsPerCall) },
    ]),
    { metric: 'Bulk load time', unit: 's', values: c((r) => r.loadSeconds) },
  ];
  return {
    id: 'history',
    title: '4. History and lists at scale',
    description: `One channel (room) of ${o.messages.toLocaleString('en-US')} messages, bulk-loaded into PostgreSQL with INSERT … SELECT generate_series (Caseroom: its chat tables, and a user in ${o.channels.toLocaleString('en-US')} channels; ejabberd and Prosody: the room's MAM archive table, rows as each server writes them); each call timed ${o.requests} times at the client, one at a time, on loopback: Caseroom over HTTP (keep-alive), the peers over XMPP with XEP-0313 MAM queries and XEP-0059 RSM paging from an occupant of the room.`,
    columns: ctx.systems,
    rows,
    ran,
    notes: [
      'Round trips are timed at the client, so they include HTTP or XMPP parsing and loopback on top of the server time; they are the figure comparable across the three systems, as the peers report no server timing. Caseroom also names its own time per answer (Server-Timing: app;dur), given in the server-time rows. CPU per call is read from /proc over the timed calls (database: every postgres process, which on this shared machine includes any other PostgreSQL work at the time).',
      "Equivalents on XMPP: latest page = RSM <before/> with max 25; page N deep = <before>id</before> with the archive id of the message N from the end, max 25; jump = the 25 messages around a message, as two queries sent at once on the stream (max 12 before its id, max 13 after the previous message's id), timed until both answered. Every page is checked (the right messages in order, RSM first/last). ejabberd and Prosody both answer each page with the RSM <count> of the whole room archive, which they count (SELECT COUNT(*) over the room's rows) on every query, as shipped (Prosody can turn it off with muc_log_include_total = false; ejabberd 23.01 has no such option); at 1,000,000 messages that count, not the page, is most of each answer's time: the page itself is an index walk of a few dozen rows.",
      "Query channels with unread counts: n/a for ejabberd and Prosody — XMPP has no list of a user's rooms with unread counts (bookmarks, XEP-0402, list rooms without unread state), so there is nothing equivalent to time.",
    ],
    raw: Object.fromEntries(results),
  };
}

/** The systems scenario 5 runs on two nodes (Prosody has no clustering). */
type ClusteredSystem = 'Caseroom' | 'ejabberd';

/** Two nodes of `name`: Caseroom's two processes on Redis, or two ejabberd nodes joined in one cluster. */
function startTwoNodes(name: ClusteredSystem, archive: boolean): Promise<Driver> {
  return name === 'Caseroom' ? CaseroomDriver.start({ nodes: 2 }) : startEjabberdCluster({ archive });
}

/** Runs `fn` on a fresh two-node instance of `name`, stopped afterwards. */
async function onTwoNodes<T>(
  name: ClusteredSystem,
  archive: boolean,
  fn: (driver: Driver) => Promise<T>,
  pair: NodesPair,
): Promise<T> {
  const driver = await startTwoNodes(name, archive);
  try {
    return await fn(driver);
  } finally {
    if (driver instanceof EjabberdClusterDriver) {
      const j = (pair.joins ??= { joins: 0, retries: 0, unreachedAtFirst: 0 });
      j.joins += driver.joins;
      j.retries += driver.joinRetries;
      j.unreachedAtFirst += driver.unreachedAtFirst;
    }
    await driver.stop().catch(() => undefined);
  }
}

/** One system's figures on one node (scenarios 1 and 2 of the same run) and on two. */
interface NodesPair {
  fan1?: FanoutResult;
  dur1?: DurableResult;
  fan2?: FanoutResult;
  dur2?: DurableResult;
  /**
   * The fan-out step at the highest rate both passed, on one node and on two; when no rate passed on both, the
   * first rate (both ran it), with `commonPassed` false.
   */
  common1?: FanoutResult['steps'][number];
  common2?: FanoutResult['steps'][number];
  commonPassed?: boolean;
  /** ejabberd cluster: joins made on two nodes, joins made again, clients that waited to be reachable. */
  joins?: { joins: number; retries: number; unreachedAtFirst: number };
}

export async function twoNodes(
  ctx: SuiteContext,
  oneNode: { fanout?: ScenarioReport; durable?: ScenarioReport },
): Promise<ScenarioReport> {
  const sizes = ctx.sizes;
  const systems = ctx.systems.filter((s): s is ClusteredSystem => s !== 'Prosody');
  const ran: Record<string, string> = {};
  const pairs = new Map<ClusteredSystem, NodesPair>();
  for (const name of systems) {
    const p: NodesPair = {
      fan1: oneNode.fanout?.raw[name] as FanoutResult | undefined,
      dur1: oneNode.durable?.raw[name] as DurableResult | undefined,
    };
    pairs.set(name, p);
    const failures: string[] = [];
    // A fresh pair of nodes for each scenario, as the one-node runs get a fresh server (fan-out without archive);
    // a failure leaves that scenario's figures out and says why.
    const attempt = async <T>(what: string, archive: boolean, run: (d: Driver) => Promise<T>) => {
      try {
        ctx.log(`  ${name}, 2 nodes, ${what}`);
        return await onTwoNodes(name, archive, run, p);
      } catch (err) {
        failures.push(`${what}: ${(err as Error).message.split('\n')[0]?.slice(0, 300)}`);
        ctx.log(`  ${name} ${what} on 2 nodes failed: ${(err as Error).stack ?? String(err)}`);
        return undefined;
      }
    };
    p.fan2 = await attempt('fan-out', false, (d) => runFanout(d, sizes.fanout));
    p.dur2 = await attempt('durable', true, (d) => runDurable(d, sizes.durable));
    // Added p99 at the highest rate both passed, else at the first rate (ejabberd at full size, 1,000 members,
    // passes 10 msgs/s at best, so a loaded machine leaves it no passed step).
    p.common1 = p.fan1?.steps
      .filter((s) => s.passed && p.fan2?.steps.some((t) => t.passed && t.rate === s.rate))
      .pop();
    p.commonPassed = p.common1 !== undefined;
    p.common1 ??= p.fan1?.steps.find((s) => p.fan2?.steps[0]?.rate === s.rate);
    p.common2 = p.common1 ? p.fan2?.steps.find((t) => t.rate === p.common1?.rate) : undefined;
    ran[name] = failures.length ? `failed: ${failures.join('; ')}` : 'ran';
  }
  ran.Prosody = 'not run: Prosody has no clustering';
  const joins = pairs.get('ejabberd')?.joins;
  const added = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? undefined : Math.round((b - a) * 100) / 100;
  const fanLost = (r: FanoutResult | undefined) => r?.steps.reduce((a, s) => a + s.lost, 0);
  /** For each metric one row per system, next to each other; `pick` answers [1 node, 2 nodes]. */
  const rows = (
    metric: (p: NodesPair) => string,
    unit: string,
    better: 'higher' | 'lower',
    pick: (p: NodesPair) => [number | undefined, number | undefined],
  ): Row[] =>
    systems.map((s) => {
      const p = pairs.get(s) ?? {};
      const [a, b] = pick(p);
      return { metric: `${s}: ${metric(p)}`, unit, better, values: [a ?? null, b ?? null] };
    });
  return {
    id: 'two-nodes',
    title: '5. Two nodes',
    description:
      'Scenarios 1 and 2 across two server processes: two Caseroom processes sharing PostgreSQL and joined by Redis pub/sub, and two ejabberd nodes joined into one cluster (Erlang distribution, replicated Mnesia); clients alternate between the nodes, the fan-out sender is on the first. The 1-node figures are those of scenarios 1 and 2 in the same run.',
    columns: ['1 node', '2 nodes'],
    rows: [
      ...rows(
        () => 'Fan-out: highest deliveries/s with p99 ≤ 100 ms',
        '/s',
        'higher',
        (p) => [
          p.fan1 && (p.fan1.best?.deliveriesPerSec ?? 0),
          p.fan2 && (p.fan2.best?.deliveriesPerSec ?? 0),
        ],
      ),
      ...rows(
        (p) =>
          `Fan-out: p99 at ${p.common1?.rate ?? '—'} msgs/s (${p.commonPassed || !p.common1 ? 'highest rate both passed' : 'first rate; not passed on both'})`,
        'ms',
        'lower',
        (p) => [p.common1?.latency.p99, p.common2?.latency.p99],
      ),
      ...rows(
        () => 'Fan-out: added p99',
        'ms',
        'lower',
        (p) => [undefined, added(p.common1?.latency.p99, p.common2?.latency.p99)],
      ),
      ...rows(
        () => 'Durable: acknowledged messages/s',
        '/s',
        'higher',
        (p) => [p.dur1?.ackedPerSec, p.dur2?.ackedPerSec],
      ),
      ...rows(
        () => 'Durable: ack p99',
        'ms',
        'lower',
        (p) => [p.dur1?.ack.p99, p.dur2?.ack.p99],
      ),
      ...rows(
        () => 'Durable: delivery p99',
        'ms',
        'lower',
        (p) => [p.dur1?.delivery.p99, p.dur2?.delivery.p99],
      ),
      ...rows(
        () => 'Durable: added delivery p99',
        'ms',
        'lower',
        (p) => [undefined, added(p.dur1?.delivery.p99, p.dur2?.delivery.p99)],
      ),
      ...rows(
        () => 'Lost deliveries (fan-out + durable)',
        '',
        'lower',
        (p) => [
          p.fan1 && p.dur1 ? (fanLost(p.fan1) ?? 0) + p.dur1.lost : undefined,
          p.fan2 && p.dur2 ? (fanLost(p.fan2) ?? 0) + p.dur2.lost : undefined,
        ],
      ),
    ],
    ran,
    notes: [
      "Both nodes of each system are pinned to the same server core (the machine has two; the other is the generator's), so two nodes have the CPU of one: this measures the cost of the hop between the nodes (Redis for Caseroom, Erlang distribution for ejabberd), not scale-out. Redis is not pinned.",
      ...(systems.includes('ejabberd')
        ? [
            "ejabberd: two nodes (benchA<port>@localhost, benchB<port>@localhost: own config, spool and c2s port, one Erlang cookie), the second joined to the first with `ejabberdctl join_cluster`, checked with `list_cluster` and with a message each way between a client on each node before each run. A MUC room lives on the node where its first occupant created it, here the first node (the fan-out sender, each durable room's sender); occupants on the second node reach it over Erlang distribution. The durable run has the archive as the one-node run has it; when that is on PostgreSQL, each node is started with a database of its own, and as the rooms live on the first node, their archive goes to the first node's.",
            ...(joins
              ? [
                  `ejabberd: a client on the second node that joins a room right after binding can lose the join (the room never answers and does not list the occupant; most likely the room's node, which learns of new sessions asynchronously, does not know the client's yet), so each such client first asks the room for disco#info until it answers (250 ms per try), as a real client makes round trips before joining. Of ${joins.joins} joins on two nodes, ${joins.unreachedAtFirst} waited so, and ${joins.retries} were lost anyway and made again on a fresh connection (after 10 s without an answer).`,
                ]
              : []),
          ]
        : []),
    ],
    raw: Object.fromEntries(pairs),
  };
}

export async function reconnect(ctx: SuiteContext): Promise<ScenarioReport> {
  const o = ctx.sizes.reconnect;
  const { results, ran } = await perSystem(ctx, true, (d) =>
    runReconnect(d as CaseroomDriver | XmppDriver, o),
  );
  const c = (pick: (r: ReconnectResult) => number | undefined) => col(ctx, results, pick);
  // Where a Caseroom reconnect spends its time (XMPP clients have no such phases).
  const phaseRows = (
    [
      ['open', 'socket to health.check'],
      ['watch', 'watch query'],
      ['sync', 'POST /sync'],
    ] as const
  ).flatMap(([name, label]) =>
    (['p50', 'p99'] as const).map((p) => ({
      metric: `Caseroom reconnect phase: ${label}, ${p}`,
      unit: 'ms',
      better: 'lower' as const,
      values: c((r) => r.phases?.[name]?.[p]),
    })),
  );
  return {
    id: 'reconnect',
    title: '6. Reconnect storm',
    description: `${o.clients} clients in ${o.rooms} rooms drop and reconnect at random moments within ${o.stormSeconds} s while ${o.ratePerRoom} msg/s flow into every room; Caseroom clients catch up with POST /chat/sync, XMPP clients rejoin asking for the room history since they dropped.`,
    columns: ctx.systems,
    rows: [
      {
        metric: 'Time until all back and synced',
        unit: 's',
        better: 'lower',
        values: c((r) => r.allBackSeconds),
      },
      {
        metric: 'Per client, drop to synced, p50',
        unit: 'ms',
        better: 'lower',
        values: c((r) => r.perClient.p50),
      },
      {
        metric: 'Per client, drop to synced, p99',
        unit: 'ms',
        better: 'lower',
        values: c((r) => r.perClient.p99),
      },
      { metric: 'Clients back', unit: '', better: 'higher', values: c((r) => r.reconnected) },
      { metric: 'Messages sent during the run', unit: '', values: c((r) => r.messagesSent) },
      { metric: 'Lost messages (any client)', unit: '', better: 'lower', values: c((r) => r.lost) },
      { metric: 'Duplicate live deliveries', unit: '', better: 'lower', values: c((r) => r.duplicates) },
      { metric: 'Server CPU during the storm', unit: '% of a core', values: c((r) => r.serverCpu) },
      ...phaseRows,
    ],
    ran,
    notes: [
      '"Lost" counts messages a client holds neither from its socket nor from catching up; catch-up overlapping live delivery is merged by message id, as the SDK does.',
      ...[...results].flatMap(([name, r]) =>
        Object.keys(r.errors).length
          ? [
              `${name} errors (count × message): ${Object.entries(r.errors)
                .map(([m, n]) => `${n} × ${m}`)
                .join('; ')}.`,
            ]
          : [],
      ),
    ],
    raw: Object.fromEntries(results),
  };
}

const LIGHTHOUSE_PAGES = [
  ['home', 'desktop', '/, desktop'],
  ['home', 'mobile', '/, mobile'],
  ['messenger', 'desktop', 'messenger, desktop'],
  ['messenger', 'mobile', 'messenger, mobile'],
] as const;

function lighthouseRows(lh: LighthouseResult | undefined): Row[] {
  const run = (page: string, preset: string) => lh?.runs.find((r) => r.page === page && r.preset === preset);
  const rows = (
    metric: string,
    unit: string,
    better: 'higher' | 'lower',
    pick: (r: LighthouseRun) => number,
  ): Row[] =>
    LIGHTHOUSE_PAGES.map(([page, preset, label]) => {
      const r = run(page, preset);
      return { metric: `${metric}, ${label}`, unit, better, values: [r ? pick(r) : null] };
    });
  return [
    ...rows('Lighthouse performance score', '', 'higher', (r) => r.score),
    ...rows('Lighthouse LCP', 'ms', 'lower', (r) => r.lcp),
    ...rows('Lighthouse TBT', 'ms', 'lower', (r) => r.tbt),
    ...rows('Lighthouse CLS', '', 'lower', (r) => r.cls),
  ];
}

function lighthouseNotes(
  lh: LighthouseResult | undefined,
  plan: LighthouseOptions,
  failed: string,
): string[] {
  if (!lh) return [`Lighthouse not run: ${failed}`];
  const scope =
    plan.presets.length === 1
      ? `the ${plan.presets[0] ?? ''} preset only`
      : 'the desktop and mobile presets (mobile: simulated slow 4G and 4× CPU slowdown)';
  return [
    `Lighthouse ${lh.lighthouseVersion}, performance category, in Debian's Chromium started by the bench, with ${scope}, ${plan.runs === 1 ? 'one run' : `the median score of ${plan.runs} runs`} per page and preset: / signed out (the sign-in page), and the chat view of the demo's case-plan group channel signed in as Maria (through the form, in the same browser profile; each run clears the HTTP cache but keeps localStorage, where the session token is). Throttling is simulated, but task times come from this shared machine, so TBT and the mobile scores move with its load; Lighthouse's CPU benchmark index per run is given below.`,
    ...lh.runs.map(
      (r) =>
        `Lighthouse ${r.page === 'home' ? '/' : 'messenger'} ${r.preset}: score ${r.score}${r.scores.length > 1 ? ` (runs: ${r.scores.join(', ')})` : ''}, FCP ${r.fcp} ms, LCP ${r.lcp} ms, TBT ${r.tbt} ms, CLS ${r.cls}, Speed Index ${r.speedIndex} ms, benchmark index ${r.benchmarkIndex}, ${r.seconds} s${r.score < 90 && r.limits.length ? `; limited by: ${r.limits.slice(0, 5).join('; ')}` : ''}${r.warnings.length ? `; warnings: ${r.warnings.join(' ')}` : ''}.`,
    ),
  ];
}

export async function web(ctx: SuiteContext): Promise<ScenarioReport> {
  const bundle = measureBundle(ROOT);
  const plan = ctx.sizes.lighthouse;
  let fps: Awaited<ReturnType<typeof measureScrollFps>> | undefined;
  let fpsNote = '';
  let lh: LighthouseResult | undefined;
  let lhNote = '';
  const first = (err: unknown) => (err as Error).message.split('\n')[0] ?? '';
  let server: WebServer | undefined;
  try {
    server = await startWebServer();
  } catch (err) {
    fpsNote = `FPS not measured: ${first(err)}`;
    lhNote = `the server did not start: ${first(err)}`;
  }
  if (server) {
    try {
      // First, on the demo data alone (the scroll run adds a long channel to Maria's list).
      ctx.log(`  bundle measured; Lighthouse (${plan.presets.join(' and ')}, ${plan.runs} run(s) per page)`);
      lh = await runLighthouse(server, plan);
    } catch (err) {
      lhNote = first(err);
      ctx.log(`  Lighthouse failed: ${(err as Error).stack ?? String(err)}`);
    }
    try {
      ctx.log('  scrolling in Chromium');
      fps = await measureScrollFps(server, ctx.sizes.fps);
    } catch (err) {
      fpsNote = `FPS not measured: ${first(err)}`;
    } finally {
      await server.stop().catch(() => undefined);
    }
  }
  return {
    id: 'web',
    title: '7. Web',
    description:
      'First-load JavaScript of /app from packages/web/dist (gzip level 6), frames per second while scrolling a long channel in Chromium, and Lighthouse performance of / and of the chat view.',
    columns: ['Caseroom'],
    rows: [
      {
        metric: 'First-load JS, gzip',
        unit: 'KB',
        better: 'lower',
        values: [Math.round(bundle.jsGzipBytes / 102.4) / 10],
      },
      {
        metric: 'First-load JS, raw',
        unit: 'KB',
        better: 'lower',
        values: [Math.round(bundle.jsBytes / 102.4) / 10],
      },
      {
        metric: 'JS fetched by Chromium loading the channel, gzip',
        unit: 'KB',
        better: 'lower',
        values: [fps ? Math.round(fps.jsGzipBytes / 102.4) / 10 : null],
      },
      {
        metric: `Scroll FPS, ${ctx.sizes.fps.messages.toLocaleString('en-US')}-message channel, mean`,
        unit: 'fps',
        better: 'higher',
        values: [fps?.fpsMean ?? null],
      },
      { metric: 'Scroll frame time p95', unit: 'ms', better: 'lower', values: [fps?.frameP95 ?? null] },
      ...lighthouseRows(lh),
    ],
    ran: { Caseroom: 'ran', ejabberd: 'n/a (no web client)', Prosody: 'n/a (no web client)' },
    notes: [
      `Entry files: ${bundle.files.map((f) => f.file).join(', ')}.`,
      ...(fpsNote ? [fpsNote] : (fps?.notes ?? [])),
      ...lighthouseNotes(lh, plan, lhNote),
    ],
    raw: { bundle, fps, lighthouse: lh },
  };
}

export type { IdleOptions };
