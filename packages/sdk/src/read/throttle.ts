/**
 * Leading-and-trailing throttle: the first call runs at once, calls during the wait collapse into
 * one run when it ends. Uses the global timers so tests can drive it with fake timers.
 */
export class Throttle {
  private lastRun = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly fn: () => void,
    private readonly intervalMs: number,
  ) {}

  call(): void {
    const wait = this.lastRun + this.intervalMs - Date.now();
    if (wait <= 0 && !this.timer) {
      this.run();
      return;
    }
    this.timer ??= setTimeout(() => this.run(), Math.max(0, wait));
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.timer = undefined;
    this.lastRun = Date.now();
    this.fn();
  }
}
