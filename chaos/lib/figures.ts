import type { Receiver } from './receivers.js';
import { acknowledged, type SendRecord } from './traffic.js';

/** What the run did to the cluster, for classifying what went wrong. */
export type Fault =
  | { kind: 'kill'; node: number; at: number; upAt: number }
  | { kind: 'redis'; mode: 'stop' | 'freeze'; at: number; upAt: number };

/** The four figures that must be 0, and the information around them. */
export interface Figures {
  /** Acknowledged (HTTP 200/201) messages absent from the server's pages. */
  acknowledgedLost: number;
  /** Per receiver, ids shown twice in one message set at some moment; summed. */
  duplicates: number;
  /** Per receiver, neighbours shown in the opposite order to the server's pages; summed. */
  orderDifferences: number;
  /** Per receiver, messages the server has in the channel that never appeared in the receiver's state; summed. */
  neverRecovered: number;
  /** Messages shown by a receiver that the server's pages do not have. */
  ghosts: number;
  /** Share of (receiver, message) pairs where the message was shown right after one the server places after it. */
  misplacedPercent: number;
  /** Receivers whose final screen is not in the server's order. */
  finalScreensOutOfOrder: number;
  /** Never-recovered messages by the fault around their send ("near kill of node 1", "during redis stop", ...). */
  neverRecoveredByKind: Record<string, number>;
  /** Never-recovered messages by the receiver's home node and whether the send was acknowledged. */
  neverRecoveredByReceiver: Record<string, number>;
  /** Per receiver: home node, outages, messages shown, and its share of the figures. */
  perReceiver: {
    user: string;
    home: number;
    outages: number;
    shown: number;
    duplicates: number;
    orderDifferences: number;
    neverRecovered: number;
  }[];
  /** Up to 10 examples of each failing figure. */
  examples: Record<string, string[]>;
}

const KILL_MARGIN_MS = 2000;

/** The fault a send overlapped with, if any. */
export function faultAround(record: SendRecord | undefined, faults: Fault[]): string {
  if (!record) return 'not sent by the load (unknown)';
  for (const f of faults) {
    const from = f.at - (f.kind === 'kill' ? KILL_MARGIN_MS : 0);
    if (record.endedAt >= from && record.startedAt <= f.upAt + 1000)
      return f.kind === 'kill' ? `near kill of node ${f.node}` : `during redis ${f.mode}`;
  }
  return 'no fault nearby';
}

const bump = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);

/** `send` overlapped one of the receiver's own outages (it was reconnecting and catching up). */
function duringOutage(record: SendRecord | undefined, receiver: Receiver): boolean {
  return !!record && receiver.outages.some((o) => record.endedAt >= o.from && record.startedAt <= o.to);
}

/** The receiver's outages within 10 s of the send, in seconds since the load started. */
function outagesNear(receiver: Receiver, record: SendRecord | undefined, origin: number): string {
  const s = (t: number) => ((t - origin) / 1000).toFixed(1);
  const near = receiver.outages.filter(
    (o) => !record || (o.to >= record.startedAt - 10_000 && o.from <= record.endedAt + 10_000),
  );
  return near.length ? near.map((o) => `${s(o.from)}-${s(o.to)} s`).join(', ') : 'none near';
}

export function computeFigures(
  truth: Map<string, string[]>,
  receivers: Receiver[],
  records: SendRecord[],
  faults: Fault[],
  origin: number,
): Figures {
  const examples: Record<string, string[]> = {};
  const example = (key: string, text: string, max = 10) => {
    const list = (examples[key] ??= []);
    if (list.length < max) list.push(text);
  };
  const at = (r: SendRecord | undefined) =>
    r
      ? `sent ${((r.startedAt - origin) / 1000).toFixed(1)}-${((r.endedAt - origin) / 1000).toFixed(1)} s`
      : '';
  const byId = new Map(records.map((r) => [r.id, r]));
  const position = new Map<string, Map<string, number>>();
  for (const [channel, order] of truth) position.set(channel, new Map(order.map((id, i) => [id, i])));

  let acknowledgedLost = 0;
  for (const r of records) {
    if (!acknowledged(r) || position.get(r.channel)?.has(r.id)) continue;
    acknowledgedLost++;
    example(
      'acknowledgedLost',
      `${r.id} (HTTP ${r.outcome} through node ${r.home}, ${faultAround(r, faults)})`,
    );
  }

  let duplicates = 0;
  let orderDifferences = 0;
  let neverRecovered = 0;
  let ghosts = 0;
  let misplaced = 0;
  let shown = 0;
  let finalScreensOutOfOrder = 0;
  const neverRecoveredByKind: Record<string, number> = {};
  const neverRecoveredByReceiver: Record<string, number> = {};
  const perReceiver: Figures['perReceiver'] = [];
  for (const rcv of receivers) {
    const before = { orderDifferences, neverRecovered };
    const pos = position.get(rcv.channelId) ?? new Map<string, number>();
    duplicates += rcv.duplicated.size;
    for (const id of rcv.duplicated) example('duplicates', `${rcv.user}: ${id}`);
    const misplacedHere = new Set<string>();
    for (const pair of rcv.neighbours) {
      const [a, b] = pair.split('\n') as [string, string];
      const pa = pos.get(a);
      const pb = pos.get(b);
      if (pa === undefined || pb === undefined || pa < pb) continue;
      orderDifferences++;
      misplacedHere.add(b);
      example('orderDifferences', `${rcv.user}: ${b} shown after ${a} (server: ${pb} before ${pa})`);
    }
    misplaced += misplacedHere.size;
    shown += rcv.seen.size;
    for (const id of rcv.seen) {
      if (pos.has(id)) continue;
      ghosts++;
      example('ghosts', `${rcv.user}: ${id}`);
    }
    for (const id of truth.get(rcv.channelId) ?? []) {
      if (rcv.seen.has(id)) continue;
      neverRecovered++;
      const record = byId.get(id);
      const reconnecting = duringOutage(record, rcv) ? ', receiver reconnecting' : ', receiver connected';
      const event = rcv.events.has(id) ? ', event dispatched but never shown' : ', no event';
      const kind = `${faultAround(record, faults)}${reconnecting}${event}`;
      bump(neverRecoveredByKind, kind);
      const acked = record && acknowledged(record) ? 'acknowledged' : 'not acknowledged';
      bump(neverRecoveredByReceiver, `receiver on node ${rcv.home}, send ${acked}`);
      example(
        `neverRecovered, ${kind}`,
        `${rcv.user} (node ${rcv.home}): ${id}, ${at(record)} via node ${record?.home}; receiver outages ${outagesNear(rcv, record, origin)}`,
        4,
      );
    }
    perReceiver.push({
      user: rcv.user,
      home: rcv.home,
      outages: rcv.outages.length,
      shown: rcv.seen.size,
      duplicates: rcv.duplicated.size,
      orderDifferences: orderDifferences - before.orderDifferences,
      neverRecovered: neverRecovered - before.neverRecovered,
    });
    const screen = rcv.screen().filter((id) => pos.has(id));
    const sorted = [...screen].sort((a, b) => (pos.get(a) as number) - (pos.get(b) as number));
    if (screen.some((id, i) => sorted[i] !== id)) finalScreensOutOfOrder++;
  }
  return {
    acknowledgedLost,
    duplicates,
    orderDifferences,
    neverRecovered,
    ghosts,
    misplacedPercent: shown ? Math.round((misplaced / shown) * 1000) / 10 : 0,
    finalScreensOutOfOrder,
    neverRecoveredByKind,
    neverRecoveredByReceiver,
    perReceiver,
    examples,
  };
}

/** The four figures the suite requires to be 0. */
export function mustBeZero(f: Figures): Record<string, number> {
  return {
    'acknowledged messages lost': f.acknowledgedLost,
    'duplicates on a receiver': f.duplicates,
    'order differences (receiver vs server)': f.orderDifferences,
    'events never recovered': f.neverRecovered,
  };
}
