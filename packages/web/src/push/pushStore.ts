import { callFunction } from '../api/http';
import { nativePushBridge, type NativePushBridge, type PushDevice } from './bridge';
import type { ChatPushDevices } from './chatDevices';

/**
 * The push token (product-spec §4 "Push token"): `'pending'` until the device registers, `false` when the
 * permission is denied or the platform is not native, else the token.
 */
export type PushToken = 'pending' | false | string;

/** Whether the push token is a real token (not `'pending'` or `false`). */
export const hasToken = (token: PushToken): token is string =>
  typeof token === 'string' && token !== 'pending';

export interface PushSnapshot {
  token: PushToken;
  /** The device the token belongs to, once the native shell answered. */
  device?: PushDevice;
  /** The user record lists the device (`users-registerDevice` answered). */
  registered: boolean;
  /** The chat server has the device (`addDevice` answered). */
  chatDevice: boolean;
}

export interface PushDeps {
  bridge: () => NativePushBridge | undefined;
  call: (name: string, data: unknown) => Promise<unknown>;
  /** Push failures are logged only (product-spec §8 Handling). */
  log: (message: string, err: unknown) => void;
}

/**
 * Push notifications of the signed-in user: `start(uid)` on sign-in asks the native shell for a token and
 * registers the device with the user record and the chat; `attachChat`/`detachChat` follow the chat client;
 * `destroy()` on logout unregisters both before the session ends. Observable like the session store.
 */
export function createPush(deps: PushDeps) {
  const initial = (): PushSnapshot => ({
    token: deps.bridge() ? 'pending' : false,
    registered: false,
    chatDevice: false,
  });
  let state = initial();
  let uid: string | undefined;
  let chat: ChatPushDevices | undefined;
  /** Bumped by destroy: work of an earlier start that finishes later is undone, not kept. */
  let generation = 0;
  const listeners = new Set<() => void>();

  function set(patch: Partial<PushSnapshot>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  async function addChatDevice(): Promise<void> {
    const { token } = state;
    const devices = chat;
    if (!hasToken(token) || !devices || state.chatDevice) return;
    try {
      await devices.addDevice(token);
      if (chat === devices && state.token === token) set({ chatDevice: true });
    } catch (err) {
      deps.log('Adding the chat push device failed', err);
    }
  }

  async function register(bridge: NativePushBridge, gen: number): Promise<void> {
    try {
      if ((await bridge.permission()) !== 'granted') {
        if (gen === generation) set({ token: false });
        return;
      }
      const { token, device } = await bridge.register();
      if (gen !== generation) return;
      set({ token, device });
      const { id, ...info } = device;
      await deps.call('users-registerDevice', { id, token, ...info });
      if (gen !== generation) {
        // Logged out meanwhile: the record must not keep a device nobody is signed in on.
        await deps.call('users-unregisterDevice', { id });
        return;
      }
      set({ registered: true });
      await addChatDevice();
    } catch (err) {
      deps.log('Push registration failed', err);
    }
  }

  const push = {
    getSnapshot(): PushSnapshot {
      return state;
    },

    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** On sign-in (an auth state with a uid): registers this device for pushes, once per user. */
    start(userId: string): void {
      if (uid === userId) return;
      uid = userId;
      const bridge = deps.bridge();
      if (!bridge) {
        set({ token: false });
        return;
      }
      set({ token: 'pending', registered: false, chatDevice: false });
      void register(bridge, generation);
    },

    /** The chat client is connected: its push device is added once the token is known. */
    attachChat(devices: ChatPushDevices): Promise<void> {
      chat = devices;
      return addChatDevice();
    },

    /** Chat teardown: removes the chat push device (a failure is logged only). */
    async detachChat(): Promise<void> {
      const devices = chat;
      const { token, chatDevice } = state;
      chat = undefined;
      set({ chatDevice: false });
      if (!devices || !chatDevice || !hasToken(token)) return;
      try {
        await devices.removeDevice(token);
      } catch (err) {
        deps.log('Removing the chat push device failed', err);
      }
    },

    /**
     * Logout: unregisters the device from the user record and the chat while the session still exists
     * (failures logged only), then forgets the user. The caller signs out afterwards.
     */
    async destroy(): Promise<void> {
      generation += 1;
      const { device, registered } = state;
      if (registered && device) {
        try {
          await deps.call('users-unregisterDevice', { id: device.id });
        } catch (err) {
          deps.log('Unregistering the push device failed', err);
        }
      }
      await push.detachChat();
      uid = undefined;
      state = initial();
      for (const listener of listeners) listener();
    },
  };
  return push;
}

export type Push = ReturnType<typeof createPush>;

/** Logout (product-spec §4): push is destroyed while the session still exists, then `signOut` runs. */
export async function logoutWithPush(p: Pick<Push, 'destroy'>, signOut: () => Promise<void>): Promise<void> {
  await p.destroy();
  await signOut();
}

/** The app's push notifications. */
export const push = createPush({
  bridge: nativePushBridge,
  call: callFunction,
  // eslint-disable-next-line no-console -- the browser console is the web app's log (product-spec §8)
  log: (message, err) => console.error(message, err),
});
