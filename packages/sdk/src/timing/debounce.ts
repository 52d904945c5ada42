/** Runs `fn` once `waitMs` passed without another call (chat-spec §9: 300 ms for search and autocomplete). */
export class Debounce<A extends unknown[]> {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly fn: (...args: A) => void,
    private readonly waitMs: number,
  ) {}

  call(...args: A): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fn(...args);
    }, this.waitMs);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
