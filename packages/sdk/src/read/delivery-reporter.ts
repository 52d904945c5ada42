/** chat-spec §9: at most 100 reports per batch, sent after 1 s of buffering. */
export const DELIVERY_BATCH_MAX = 100;
export const DELIVERY_BUFFER_MS = 1_000;

export interface DeliveredMessage {
  cid: string;
  id: string;
}

/**
 * Batches "delivered" reports (chat-spec §6 Read marking): the first report starts a 1 s buffer; then
 * the newest message per channel goes out, at most 100 per request (the rest in following batches).
 * A failed batch is logged by the caller and dropped: a later delivery supersedes it.
 */
export class DeliveryReporter {
  private readonly pending = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (batch: DeliveredMessage[]) => Promise<unknown>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  delivered(cid: string, messageId: string): void {
    this.pending.delete(cid);
    this.pending.set(cid, messageId);
    this.timer ??= setTimeout(() => this.flush(), DELIVERY_BUFFER_MS);
  }

  /** Sends what is buffered now, in batches of at most 100. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const all = [...this.pending].map(([cid, id]) => ({ cid, id }));
    this.pending.clear();
    for (let i = 0; i < all.length; i += DELIVERY_BATCH_MAX) {
      this.send(all.slice(i, i + DELIVERY_BATCH_MAX)).catch(this.onError);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
