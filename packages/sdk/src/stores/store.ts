/**
 * A read-only observable value. Snapshots are immutable: every change produces a new object, so
 * `getSnapshot()` can be handed to React's `useSyncExternalStore` as is (both methods are bound).
 */
export interface Store<T> {
  getSnapshot(): T;
  subscribe(listener: () => void): () => void;
}

/** The writable store behind every public `Store`. Only the SDK writes; consumers see `Store<T>`. */
export class StateStore<T> implements Store<T> {
  private value: T;
  private readonly listeners = new Set<() => void>();

  constructor(initial: T) {
    this.value = initial;
  }

  readonly getSnapshot = (): T => this.value;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Replaces the value; listeners run only when the reference changes. */
  set(next: T): void {
    if (Object.is(next, this.value)) return;
    this.value = next;
    for (const listener of [...this.listeners]) listener();
  }

  update(fn: (previous: T) => T): void {
    this.set(fn(this.value));
  }

  /** Shallow-merges an object value; a patch that changes nothing keeps the old snapshot. */
  patch(this: StateStore<T & object>, partial: Partial<T>): void {
    const current = this.value;
    const changed = (Object.keys(partial) as (keyof T)[]).some(
      (key) => !Object.is(current[key], partial[key]),
    );
    if (changed) this.set({ ...current, ...partial });
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
