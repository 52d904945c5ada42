import { CHAT_LIMITS } from '@caseroom/protocol';
import type { ChatChannel } from '../channels/channel.js';
import type { ChannelList } from '../channels/channel-list.js';
import type { ApiClient } from '../transport/api-client.js';
import type { EventStream } from './event-stream.js';
import { toChatApiError } from '../transport/errors.js';
import type { Logger } from '../transport/logger.js';

export interface RecoveryHost {
  api: ApiClient;
  logger: Logger;
  channels(): Iterable<ChatChannel>;
  lists(): Iterable<ChannelList>;
  activeChannel(): ChatChannel | undefined;
  lastEventAt(): string | undefined;
  /** The per-channel sequences: the sync runs from their cursor and applies through them. */
  stream: Pick<EventStream, 'catchUp'>;
  recovered(): void;
}

/**
 * Catch-up after a dropped connection (chat-spec §4 Connection), one run at a time: `POST /sync`
 * from the cursor of sequences (and the last event's time for what the cursor does not know), the
 * lists re-queried (limit 30), the active channel reloaded. A request during a run makes it run once
 * more. Failures are logged and the flow continues.
 */
export class Recovery {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly host: RecoveryHost) {}

  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.once();
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async once(): Promise<void> {
    const { host } = this;
    const cids = [...host.channels()]
      .filter((c) => c.isInitialized && c.cid)
      .map((c) => c.cid as string)
      .slice(0, CHAT_LIMITS.maxQueryLimit);
    const since = host.lastEventAt();
    if (since && cids.length > 0) {
      try {
        await host.stream.catchUp(cids, since);
      } catch (error) {
        host.logger('warn', `sync after reconnect failed: ${toChatApiError(error).message}`);
      }
    }
    await Promise.all([
      ...[...host.lists()].map((list) => list.reload()),
      (async () => {
        const active = host.activeChannel();
        if (!active) return;
        try {
          await active.watch();
        } catch (error) {
          host.logger('warn', `reloading the active channel failed: ${toChatApiError(error).message}`);
        }
      })(),
    ]);
    host.recovered();
  }
}
