import { CHAT_TIMING } from '@caseroom/protocol';
import { StateStore, type Store } from '../stores/store.js';

/** User-facing texts of chat-spec §8 for the features that exist. */
export const NOTICE_TEXTS = {
  connectError: 'Error connecting to chat, refresh the page to try again.',
  reconnecting: 'Connection failure, reconnecting now...',
  channelsLoadError: 'Error loading channels',
  messageNotFound: 'Message not found',
  waitForUploads: 'Wait until all attachments have uploaded',
  cannotSend: "You can't send messages in this channel",
  cannotSendReply: "You can't send thread replies in this channel",
  linksNotAllowed: 'Sending links is not allowed in this conversation',
  deleteError: 'Error deleting message',
  editError: 'Edit message request failed',
  markUnreadError: 'Error marking message as unread',
  markUnreadWindow: 'Error, only the first {{count}} message can be marked as unread',
  pinned: 'Message pinned',
  pinError: 'Error pinning message',
  unpinned: 'Message unpinned',
  unpinError: 'Error removing message pin',
  flagged: 'Message has been successfully flagged',
  flagError: 'Error adding flag',
  reactionsLoadError: 'Error loading reactions',
} as const;

export interface Notice {
  id: string;
  text: string;
  type: 'error' | 'success' | 'info';
  /** Permanent notices stay until removed; temporary ones leave after `durationMs`. */
  permanent: boolean;
  createdAt: number;
}

export interface NoticeInput {
  text: string;
  type?: Notice['type'];
  /** Default 5000 ms (chat-spec §8); ignored for permanent notices. */
  durationMs?: number;
  permanent?: boolean;
  /** A stable id replaces an existing notice with the same id (one "reconnecting" notice, not many). */
  id?: string;
}

/** The notification list (chat-spec §2): temporary and permanent notices, newest last. */
export class Notifications implements Store<readonly Notice[]> {
  private readonly store = new StateStore<readonly Notice[]>([]);
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private counter = 0;

  readonly getSnapshot = (): readonly Notice[] => this.store.getSnapshot();
  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  add(input: NoticeInput): string {
    const id = input.id ?? `notice-${++this.counter}`;
    const permanent = input.permanent ?? false;
    const notice: Notice = {
      id,
      text: input.text,
      type: input.type ?? 'error',
      permanent,
      createdAt: Date.now(),
    };
    this.clearTimer(id);
    this.store.update((list) => [...list.filter((n) => n.id !== id), notice]);
    if (!permanent) {
      this.timers.set(
        id,
        setTimeout(() => this.remove(id), input.durationMs ?? CHAT_TIMING.notificationDurationMs),
      );
    }
    return id;
  }

  remove(id: string): void {
    this.clearTimer(id);
    if (this.store.getSnapshot().some((n) => n.id === id))
      this.store.update((list) => list.filter((n) => n.id !== id));
  }

  clear(): void {
    for (const id of this.timers.keys()) this.clearTimer(id);
    this.store.set([]);
  }

  private clearTimer(id: string): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
  }
}
