/** Seconds of slow-mode cooldown left (chat-spec §4 Cooldown), from the channel's cooldown and the last own message. */
export function cooldownRemaining(
  cooldownSeconds: number | undefined,
  lastOwnMessageAt: string | undefined,
  now: number = Date.now(),
): number {
  if (!cooldownSeconds || !lastOwnMessageAt) return 0;
  // A server clock slightly ahead of this device never makes the wait longer than the cooldown.
  const elapsed = Math.max(0, (now - Date.parse(lastOwnMessageAt)) / 1000);
  return Math.max(0, Math.ceil(cooldownSeconds - elapsed));
}

/** A countdown that ticks every second and stops (resets) at zero. */
export class Countdown {
  private timer: ReturnType<typeof setInterval> | undefined;
  private remaining = 0;

  constructor(private readonly onTick: (remaining: number) => void) {}

  get value(): number {
    return this.remaining;
  }

  /** (Re)starts from `seconds`; zero or less stops it. */
  start(seconds: number): void {
    this.stop();
    this.remaining = Math.max(0, seconds);
    this.onTick(this.remaining);
    if (this.remaining === 0) return;
    this.timer = setInterval(() => {
      this.remaining -= 1;
      if (this.remaining <= 0) {
        this.remaining = 0;
        this.stop();
      }
      this.onTick(this.remaining);
    }, 1000);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
