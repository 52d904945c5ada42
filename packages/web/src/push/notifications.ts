import { chatPath } from '../chat/useChannelList';
import type { PushEntry, PushNotificationData } from './bridge';

/** How long a push toast stays (product-spec §2, §9). */
export const PUSH_TOAST_MS = 5000;

export interface ShownPush {
  id: number;
  data: PushNotificationData;
}

/** Where a push leads: its route (an app path), else its chat channel; undefined when neither. */
export function pushTarget(data: PushNotificationData): string | undefined {
  if (data.route && data.route.startsWith('/') && !data.route.startsWith('//')) return data.route;
  if (data.channelId) return chatPath({ type: data.channelType ?? 'messaging', id: data.channelId });
  return undefined;
}

/** The cid of the chat a push is about, if any. */
export const pushCid = (data: PushNotificationData) =>
  data.channelId ? `${data.channelType ?? 'messaging'}:${data.channelId}` : undefined;

/**
 * Pushes handed over by the native shell: the one shown as a toast (the newest replaces it), and one the user
 * tapped, which the app opens.
 */
export function createPushNotifications() {
  let shown: ShownPush | undefined;
  let tapped: ShownPush | undefined;
  let nextId = 1;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());

  return {
    getShown: () => shown,
    getTapped: () => tapped,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** A push arrived while the app is open: show it. */
    notify(data: PushNotificationData): void {
      shown = { id: nextId++, data };
      emit();
    },
    /** The user tapped a push: open where it leads. */
    open(data: PushNotificationData): void {
      tapped = { id: nextId++, data };
      emit();
    },
    dismiss(id: number): void {
      if (shown?.id === id) shown = undefined;
      if (tapped?.id === id) tapped = undefined;
      emit();
    },
  };
}

export type PushNotifications = ReturnType<typeof createPushNotifications>;

/** The app's pushes, and the entry the native shell calls. */
export const pushNotifications = createPushNotifications();

if (typeof window !== 'undefined') {
  const entry: PushEntry = { notify: pushNotifications.notify, open: pushNotifications.open };
  window.CaseroomPush = entry;
}
