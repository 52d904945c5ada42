import type { ChatEvent, OwnUser } from '@caseroom/protocol';
import type { NoticeInput } from '../notifications/notifications.js';
import type { ChatChannel } from '../channels/channel.js';
import type { MessageActions } from '../messages/message-actions.js';
import type { ApiClient } from '../transport/api-client.js';
import type { Logger } from '../transport/logger.js';

/** What channels and lists need from the client, so they do not import it. */
export interface ClientContext {
  readonly api: ApiClient;
  readonly logger: Logger;
  /** The connected user, or undefined before connectUser. */
  currentUser(): OwnUser | undefined;
  /** A channel's state was loaded as of its event `seq` (the query answer's `channel.last_seq`). */
  streamLoaded?(cid: string, seq: number): void;
  /** Registers a channel under its cid once it is known (distinct channels learn it from the query). */
  registerChannel(cid: string, channel: unknown): void;
  /** Applies an event to channels, threads and lists without telling `client.on` listeners. */
  applyLocally(event: ChatEvent): void;
  /** Emits a client-side event (e.g. typing.stop after expiry) to `client.on` listeners. */
  emitLocal(event: ChatEvent): void;
  /** Shows a user-facing notice (chat-spec §8); answers its id. */
  notify(notice: NoticeInput): string;
  dismiss(id: string): void;
  /** The channel on screen. */
  activeChannel(): ChatChannel | undefined;
  setActiveChannel(channel: ChatChannel | undefined): void;
  /** The client's message actions (edit, delete, pin, react, flag). */
  messageActions(): MessageActions;
}
