import { CHAT_TIMING } from '@caseroom/protocol';

/** Sends typing.start at most every 2 s while the user types, and typing.stop when asked (chat-spec §9). */
export class TypingSender {
  private lastStart = new Map<string, number>();

  constructor(private readonly send: (type: 'typing.start' | 'typing.stop', parentId?: string) => void) {}

  keystroke(parentId?: string): void {
    const key = parentId ?? '';
    const last = this.lastStart.get(key) ?? -Infinity;
    if (Date.now() - last < CHAT_TIMING.typingStartIntervalMs) return;
    this.lastStart.set(key, Date.now());
    this.send('typing.start', parentId);
  }

  stop(parentId?: string): void {
    const key = parentId ?? '';
    if (!this.lastStart.has(key)) return;
    this.lastStart.delete(key);
    this.send('typing.stop', parentId);
  }
}

/** Expires other users' typing after 7 s without a new event (chat-spec §4), calling `expire`. */
export class TypingExpiry {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly expire: (userId: string) => void) {}

  /** A typing.start arrived: (re)arm the user's timer. */
  started(userId: string): void {
    clearTimeout(this.timers.get(userId));
    this.timers.set(
      userId,
      setTimeout(() => {
        this.timers.delete(userId);
        this.expire(userId);
      }, CHAT_TIMING.typingExpiryMs),
    );
  }

  stopped(userId: string): void {
    clearTimeout(this.timers.get(userId));
    this.timers.delete(userId);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
