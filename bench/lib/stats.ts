/** Latency samples (milliseconds) and their percentiles. */
export class Samples {
  private readonly values: number[] = [];
  private sorted: number[] | undefined;

  add(ms: number): void {
    this.values.push(ms);
    this.sorted = undefined;
  }

  get count(): number {
    return this.values.length;
  }

  /** The q-quantile (0..1) by nearest rank; NaN when empty. */
  quantile(q: number): number {
    if (this.values.length === 0) return Number.NaN;
    this.sorted ??= [...this.values].sort((a, b) => a - b);
    const rank = Math.min(this.sorted.length - 1, Math.max(0, Math.ceil(q * this.sorted.length) - 1));
    return this.sorted[rank] ?? Number.NaN;
  }

  summary(): LatencySummary {
    return {
      count: this.count,
      p50: round(this.quantile(0.5)),
      p99: round(this.quantile(0.99)),
      p999: round(this.quantile(0.999)),
      max: round(this.quantile(1)),
    };
  }
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/** Rounds to 2 decimals (NaN stays NaN). */
export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Milliseconds on the generator's one clock, with sub-millisecond resolution. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `fn` over `items` with at most `limit` in flight; answers the results in order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
) {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Waits until `check()` is true or `timeoutMs` passed; answers whether it became true. */
export async function until(check: () => boolean, timeoutMs: number, stepMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(stepMs);
  }
  return true;
}

/** A source address on loopback for client `i`: spreads clients over 127.0.1.x so ephemeral ports never run out. */
export function loopbackSource(i: number): string {
  return `127.0.${1 + ((i >> 8) % 200)}.${(i % 250) + 2}`;
}
