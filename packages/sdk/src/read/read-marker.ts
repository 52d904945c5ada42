import { CHAT_TIMING } from '@caseroom/protocol';
import { Throttle } from './throttle.js';

/**
 * Read marking for one channel (chat-spec §4): throttled to one call per 1050 ms, and paused after
 * the user marks a message unread until `resume()` (the user opens the channel again).
 */
export class ReadMarker {
  private paused = false;
  private readonly throttle: Throttle;

  constructor(send: () => void, intervalMs: number = CHAT_TIMING.markReadThrottleMs) {
    this.throttle = new Throttle(send, intervalMs);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Asks for a mark-read; ignored while paused. Answers whether it was accepted. */
  request(): boolean {
    if (this.paused) return false;
    this.throttle.call();
    return true;
  }

  pause(): void {
    this.paused = true;
    this.throttle.cancel();
  }

  resume(): void {
    this.paused = false;
  }

  dispose(): void {
    this.throttle.cancel();
  }
}
