import type { FakeConnection } from './fake-websocket.js';

/**
 * A long-poll connection of the fake server (`GET /longpoll`): frames pushed to it wait in a buffer
 * until the next poll takes them, or wake a poll that is waiting. Closed by the server (a dropped
 * network), a waiting or later poll answers code 46, as the real server does for an unknown id.
 */
export class FakePollSession implements FakeConnection {
  userId: string | undefined;
  connectionId: string | undefined;
  private frames: unknown[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(private readonly onClose: (session: FakePollSession) => void) {}

  push(frame: unknown): void {
    if (this.closed) return;
    this.frames.push(frame);
    this.wake?.();
  }

  serverClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
    this.wake?.();
  }

  /** The buffered frames, emptying the buffer. */
  drain(): unknown[] {
    const frames = this.frames;
    this.frames = [];
    return frames;
  }

  /** Waits up to `timeoutMs` for frames; answers them (maybe none). Rejects once closed. */
  async take(timeoutMs: number, closedError: () => Error): Promise<unknown[]> {
    if (this.frames.length === 0 && !this.closed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        this.wake = done;
      });
    }
    if (this.closed) throw closedError();
    return this.drain();
  }
}
