import type { ConnectionSink } from './connections.js';

/**
 * The sink of a long-poll connection: frames wait in a queue until the next poll takes them. A connection not
 * polled within `idleMs` closes itself (the same 35 s check as a socket).
 */
export class LongPollSink implements ConnectionSink {
  private queue: string[] = [];
  private waiter: (() => void) | undefined;
  private idle: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly idleMs: number,
    private readonly onClose: () => void,
  ) {
    this.arm();
  }

  get open(): boolean {
    return !this.closed;
  }

  send(frame: string): void {
    if (this.closed) return;
    this.queue.push(frame);
    this.waiter?.();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idle);
    this.waiter?.();
    this.onClose();
  }

  /** Waits up to `timeoutMs` for frames and takes them all (an empty list on timeout). */
  async take(timeoutMs: number): Promise<string[]> {
    clearTimeout(this.idle);
    if (this.queue.length === 0 && !this.closed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiter = undefined;
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        this.waiter = done;
      });
    }
    const frames = this.queue;
    this.queue = [];
    this.arm();
    return frames;
  }

  private arm(): void {
    if (this.closed) return;
    this.idle = setTimeout(() => this.close(), this.idleMs);
    this.idle.unref();
  }
}
