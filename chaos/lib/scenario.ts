import { Balancer } from './balancer.js';
import { sleep, startCluster, type Cluster } from './cluster.js';
import { computeFigures, type Fault, type Figures } from './figures.js';
import { Receiver } from './receivers.js';
import { acknowledged, Load, sendOnce, serverOrder, setupChannel, type SendRecord } from './traffic.js';

export interface ChaosOptions {
  nodes: number;
  kills: number;
  /** How Redis is stopped once: SIGKILL then a new redis-server on the same port, or SIGSTOP/SIGCONT. */
  redisMode: 'stop' | 'freeze';
  redisSeconds: number;
  /** Messages a second per sender; each channel has one sender per node. */
  rate: number;
  channels: number;
  /** Receivers per channel per node. */
  receivers: number;
  /** Calm load between the faults, ms. */
  gapMs: number;
  /** How long the quiescence may wait for receivers to catch up, ms. */
  settleMs: number;
  log: (line: string) => void;
}

export interface ChaosResult {
  options: Omit<ChaosOptions, 'log'>;
  figures: Figures;
  messagesOnServer: number;
  sends: { attempted: number; acknowledged: number; refusedDuringRedis: number; failedOther: number };
  outcomes: Record<string, number>;
  loadSeconds: number;
  throughput: number;
  /** p50/p99/max ms of acknowledged sends. */
  sendLatency: { p50: number; p99: number; max: number };
  /** Receivers' outages, from losing the connection to `connection.recovered`, ms. */
  recovery: { count: number; p50: number; p99: number; max: number };
  /** Kill to /healthz of the restarted node, ms. */
  restartMs: number[];
  faults: Fault[];
  /** Seconds the quiescence waited, and whether every receiver caught up within it. */
  settle: { seconds: number; complete: boolean };
  /** Lines of `"level":50` and above (pino errors) in each node's output (last 20 kB of it). */
  nodeErrorLines: number[];
  /** The SDK's warnings and errors over all receivers, by message. */
  sdkWarnings: Record<string, number>;
  /** The last 20 kB of each node's output (written beside the report, not into it). */
  nodeLogs: string[];
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) : 0;

async function truthOf(cluster: Cluster, channels: string[]): Promise<Map<string, string[]>> {
  const node = cluster.nodes.find((n) => n.up) ?? (cluster.nodes[0] as Cluster['nodes'][number]);
  const truth = new Map<string, string[]>();
  for (const c of channels) truth.set(c, await serverOrder(node.port, c, 'chaos-auditor'));
  return truth;
}

export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const { log, ...options } = o;
  log(`starting redis, database and ${o.nodes} nodes`);
  const cluster = await startCluster(o.nodes);
  const balancers: Balancer[] = [];
  const receivers: Receiver[] = [];
  try {
    for (let n = 0; n < o.nodes; n++) balancers.push(await Balancer.start(n, cluster.nodes));
    const port = (home: number) => (balancers[home] as Balancer).port;
    const channels = Array.from({ length: o.channels }, (_, c) => `chaos-${c}`);
    const senders = channels.flatMap((channel, c) =>
      cluster.nodes.map((_, n) => ({ user: `sender-${c}-${n}`, channel, home: n, port: port(n) })),
    );
    for (const [c, channel] of channels.entries()) {
      const members = ['chaos-auditor', ...senders.filter((s) => s.channel === channel).map((s) => s.user)];
      for (let n = 0; n < o.nodes; n++)
        for (let j = 0; j < o.receivers; j++) {
          const r = new Receiver(`receiver-${c}-${n}-${j}`, channel, n, port(n));
          receivers.push(r);
          members.push(r.user);
        }
      await setupChannel(cluster.nodes[0]?.port as number, channel, members);
    }
    for (const r of receivers) await r.connect();
    log(`${receivers.length} receivers watching ${channels.length} channels; ${senders.length} senders`);

    const faults: Fault[] = [];
    const restartMs: number[] = [];
    const load = new Load(senders, o.rate);
    const loadStart = Date.now();
    await sleep(o.gapMs / 2);
    const redisAfter = Math.floor(o.kills / 2);
    for (let k = 0; k <= o.kills; k++) {
      if (k === redisAfter) {
        const at = Date.now();
        log(`redis ${o.redisMode} for ${o.redisSeconds} s`);
        if (o.redisMode === 'stop') await cluster.redis.stop();
        else cluster.redis.freeze();
        await sleep(o.redisSeconds * 1000);
        if (o.redisMode === 'stop') await cluster.redis.start();
        else cluster.redis.thaw();
        faults.push({ kind: 'redis', mode: o.redisMode, at, upAt: Date.now() });
        await sleep(o.gapMs);
      }
      if (k === o.kills) break;
      const node = cluster.nodes[(k + 1) % o.nodes] as Cluster['nodes'][number];
      const at = Date.now();
      log(`kill ${k + 1}/${o.kills}: SIGKILL node ${node.index}`);
      await node.kill('SIGKILL');
      await sleep(500);
      await node.start();
      restartMs.push(Date.now() - at);
      faults.push({ kind: 'kill', node: node.index, at, upAt: Date.now() });
      await sleep(o.gapMs);
    }
    await load.stop();
    const loadSeconds = (Date.now() - loadStart) / 1000;
    log(`load stopped after ${loadSeconds.toFixed(1)} s; ${load.records.length} sends`);

    // Quiescence: every receiver back online, then one last message per channel (steady cluster, so a receiver that
    // tracks the stream can notice what it lacks), then until every receiver holds every message or none progresses.
    const settleStart = Date.now();
    const deadline = settleStart + o.settleMs;
    while (!receivers.every((r) => r.settled) && Date.now() < deadline) await sleep(200);
    const records: SendRecord[] = [...load.records];
    for (const channel of channels) {
      const s = senders.find((x) => x.channel === channel) as (typeof senders)[number];
      records.push(await sendOnce(s.port, s.home, channel, s.user, `${s.user}-last`));
    }
    let truth = await truthOf(cluster, channels);
    let complete = false;
    for (;;) {
      complete = receivers.every((r) => (truth.get(r.channelId) ?? []).every((id) => r.seen.has(id)));
      const stalled = receivers.every((r) => r.settled && Date.now() - r.lastNewAt > 5000);
      if (complete || stalled || Date.now() > deadline) break;
      await sleep(1000);
      truth = await truthOf(cluster, channels);
    }
    const settle = { seconds: Math.round((Date.now() - settleStart) / 100) / 10, complete };
    log(`settled in ${settle.seconds} s (${complete ? 'every receiver caught up' : 'some never caught up'})`);

    const figures = computeFigures(truth, receivers, records, faults, loadStart);
    const acked = records.filter(acknowledged);
    const redis = faults.find((f) => f.kind === 'redis');
    const inRedis = (r: SendRecord) => !!redis && r.endedAt >= redis.at && r.startedAt <= redis.upAt;
    const outcomes: Record<string, number> = {};
    for (const r of records) outcomes[String(r.outcome)] = (outcomes[String(r.outcome)] ?? 0) + 1;
    const latencies = acked.map((r) => r.endedAt - r.startedAt).sort((a, b) => a - b);
    const outages = receivers.flatMap((r) => r.outages.map((x) => x.to - x.from)).sort((a, b) => a - b);
    return {
      options,
      figures,
      messagesOnServer: [...truth.values()].reduce((a, b) => a + b.length, 0),
      sends: {
        attempted: records.length,
        acknowledged: acked.length,
        refusedDuringRedis: records.filter((r) => !acknowledged(r) && inRedis(r)).length,
        failedOther: records.filter((r) => !acknowledged(r) && !inRedis(r)).length,
      },
      outcomes,
      loadSeconds: Math.round(loadSeconds * 10) / 10,
      throughput: Math.round((load.records.filter(acknowledged).length / loadSeconds) * 10) / 10,
      sendLatency: {
        p50: quantile(latencies, 0.5),
        p99: quantile(latencies, 0.99),
        max: latencies.at(-1) ?? 0,
      },
      recovery: {
        count: outages.length,
        p50: quantile(outages, 0.5),
        p99: quantile(outages, 0.99),
        max: outages.at(-1) ?? 0,
      },
      restartMs,
      faults: faults.map((f) => ({ ...f, at: f.at - loadStart, upAt: f.upAt - loadStart })),
      settle,
      nodeErrorLines: cluster.nodes.map((n) => (n.output().match(/"level":(50|60)/g) ?? []).length),
      nodeLogs: cluster.nodes.map((n) => n.output()),
      sdkWarnings: receivers.reduce<Record<string, number>>((all, r) => {
        for (const [k, v] of r.warnings) all[k] = (all[k] ?? 0) + v;
        return all;
      }, {}),
    };
  } finally {
    for (const r of receivers) await r.close();
    for (const b of balancers) await b.close();
    await cluster.close();
  }
}
