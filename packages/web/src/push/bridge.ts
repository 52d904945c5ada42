/**
 * The contract between the web app and a native shell (a future Capacitor build): the shell puts
 * `window.CaseroomNative.push` in place before the app starts; the web build has none, which is how the app
 * knows it is not native. The shell hands incoming pushes to `window.CaseroomPush.notify(data)` (shown as a
 * toast) or, when the user tapped one, `window.CaseroomPush.open(data)`.
 */

/** The device a push token belongs to (product-spec §3 User devices). */
export interface PushDevice {
  id: string;
  name: string;
  osVersion: string;
  model: string;
  platform: string;
}

export type PushPermission = 'granted' | 'denied';

/** What the native shell provides. */
export interface NativePushBridge {
  /** Asks for (or reads) the permission to show notifications. */
  permission(): Promise<PushPermission>;
  /** Registers the device with the push service; answers its token and the device it belongs to. */
  register(): Promise<{ token: string; device: PushDevice }>;
}

/** A push's data: a route to open, or the chat channel it is about (type `messaging` unless given). */
export interface PushNotificationData {
  title?: string;
  body?: string;
  route?: string;
  channelId?: string;
  channelType?: string;
}

/** What the app offers the native shell. */
export interface PushEntry {
  notify(data: PushNotificationData): void;
  open(data: PushNotificationData): void;
}

declare global {
  interface Window {
    CaseroomNative?: { push?: NativePushBridge };
    CaseroomPush?: PushEntry;
  }
}

/** The native push bridge, or undefined on the web (not a native platform). */
export function nativePushBridge(): NativePushBridge | undefined {
  return typeof window === 'undefined' ? undefined : window.CaseroomNative?.push;
}
