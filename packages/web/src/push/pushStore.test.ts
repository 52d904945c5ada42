import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NativePushBridge, PushDevice, PushPermission } from './bridge';
import type { ChatPushDevices } from './chatDevices';
import { createPush, logoutWithPush, type PushDeps } from './pushStore';

const DEVICE: PushDevice = {
  id: 'dev-1',
  name: 'Pixel',
  osVersion: '15',
  model: 'Pixel 9',
  platform: 'android',
};

/** A native shell answering after `delayMs` each, as a real one would. */
function fakeBridge(opts: { permission?: PushPermission; registerError?: Error; delayMs?: number } = {}) {
  const wait = <T>(value: () => T) =>
    new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(value());
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      }, opts.delayMs ?? 100),
    );
  const bridge: NativePushBridge = {
    permission: vi.fn(() => wait(() => opts.permission ?? 'granted')),
    register: vi.fn(() =>
      wait(() => {
        if (opts.registerError) throw opts.registerError;
        return { token: 'fcm-token-1', device: DEVICE };
      }),
    ),
  };
  return bridge;
}

let calls: string[];
let log: ReturnType<typeof vi.fn<PushDeps['log']>>;

function setup(bridge: NativePushBridge | undefined, callImpl?: PushDeps['call']) {
  const call = vi.fn<PushDeps['call']>(
    callImpl ??
      (async (name, data) => {
        calls.push(`${name} ${JSON.stringify(data)}`);
        return null;
      }),
  );
  log = vi.fn<PushDeps['log']>();
  return { push: createPush({ bridge: () => bridge, call, log }), call };
}

function fakeChat(fail = false): ChatPushDevices {
  return {
    addDevice: vi.fn(async (token: string) => {
      calls.push(`chat addDevice ${token}`);
    }),
    removeDevice: vi.fn(async (token: string) => {
      calls.push(`chat removeDevice ${token}`);
      if (fail) throw new Error('chat is gone');
    }),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  calls = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('push token', () => {
  it('is pending until the device registers, then the token; then the device is registered', async () => {
    const { push } = setup(fakeBridge());
    expect(push.getSnapshot().token).toBe('pending');
    push.start('u1');
    expect(push.getSnapshot().token).toBe('pending');
    await vi.advanceTimersByTimeAsync(100); // permission
    expect(push.getSnapshot().token).toBe('pending');
    await vi.advanceTimersByTimeAsync(100); // register
    expect(push.getSnapshot()).toMatchObject({ token: 'fcm-token-1', device: DEVICE, registered: true });
    expect(calls).toEqual([
      'users-registerDevice {"id":"dev-1","token":"fcm-token-1","name":"Pixel","osVersion":"15","model":"Pixel 9","platform":"android"}',
    ]);
  });

  it('is false when the permission is denied, and registers nothing', async () => {
    const bridge = fakeBridge({ permission: 'denied' });
    const { push, call } = setup(bridge);
    push.start('u1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(push.getSnapshot().token).toBe(false);
    expect(bridge.register).not.toHaveBeenCalled();
    expect(call).not.toHaveBeenCalled();
  });

  it('is false at once on the web (no native bridge)', () => {
    const { push, call } = setup(undefined);
    expect(push.getSnapshot().token).toBe(false);
    push.start('u1');
    expect(push.getSnapshot().token).toBe(false);
    expect(call).not.toHaveBeenCalled();
  });

  it('logs a registration error and nothing else (no throw, token stays pending)', async () => {
    const { push, call } = setup(fakeBridge({ registerError: new Error('no play services') }));
    push.start('u1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(log).toHaveBeenCalledWith(
      'Push registration failed',
      expect.objectContaining({ message: 'no play services' }),
    );
    expect(push.getSnapshot()).toMatchObject({ token: 'pending', registered: false });
    expect(call).not.toHaveBeenCalled();
  });

  it('logs a failed users-registerDevice only', async () => {
    const { push } = setup(fakeBridge(), () => Promise.reject(new Error('500')));
    push.start('u1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(log).toHaveBeenCalledTimes(1);
    expect(push.getSnapshot()).toMatchObject({ token: 'fcm-token-1', registered: false });
  });

  it('starts once per user', async () => {
    const bridge = fakeBridge();
    const { push } = setup(bridge);
    push.start('u1');
    push.start('u1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(bridge.permission).toHaveBeenCalledTimes(1);
  });
});

describe('chat push device', () => {
  it('is added with the token once both the chat and the token are there (either order)', async () => {
    const early = setup(fakeBridge());
    const chat = fakeChat();
    await early.push.attachChat(chat);
    early.push.start('u1');
    expect(chat.addDevice).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(chat.addDevice).toHaveBeenCalledWith('fcm-token-1');
    expect(early.push.getSnapshot().chatDevice).toBe(true);

    const late = setup(fakeBridge());
    late.push.start('u1');
    await vi.advanceTimersByTimeAsync(200);
    const chat2 = fakeChat();
    await late.push.attachChat(chat2);
    expect(chat2.addDevice).toHaveBeenCalledWith('fcm-token-1');
  });

  it('is never added on the web', async () => {
    const { push } = setup(undefined);
    const chat = fakeChat();
    push.start('u1');
    await push.attachChat(chat);
    expect(chat.addDevice).not.toHaveBeenCalled();
  });

  it('is removed on chat teardown; a failure is logged only', async () => {
    const { push } = setup(fakeBridge());
    const chat = fakeChat(true);
    push.start('u1');
    await push.attachChat(chat);
    await vi.advanceTimersByTimeAsync(200);
    await expect(push.detachChat()).resolves.toBeUndefined();
    expect(chat.removeDevice).toHaveBeenCalledWith('fcm-token-1');
    expect(log).toHaveBeenCalledWith('Removing the chat push device failed', expect.any(Error));
    expect(push.getSnapshot().chatDevice).toBe(false);
  });
});

describe('logout', () => {
  it('unregisters the device, removes the chat device, then signs out', async () => {
    const { push } = setup(fakeBridge());
    push.start('u1');
    await push.attachChat(fakeChat());
    await vi.advanceTimersByTimeAsync(200);
    calls = [];
    await logoutWithPush(push, async () => {
      calls.push('sign out');
    });
    expect(calls).toEqual([
      'users-unregisterDevice {"id":"dev-1"}',
      'chat removeDevice fcm-token-1',
      'sign out',
    ]);
    expect(push.getSnapshot()).toEqual({ token: 'pending', registered: false, chatDevice: false });
  });

  it('signs out even when unregistering fails (logged only)', async () => {
    let failing = false;
    const { push } = setup(fakeBridge(), async (name) => {
      calls.push(name);
      if (failing) throw new Error('offline');
      return null;
    });
    push.start('u1');
    await push.attachChat(fakeChat(true));
    await vi.advanceTimersByTimeAsync(200);
    failing = true;
    calls = [];
    await logoutWithPush(push, async () => {
      calls.push('sign out');
    });
    expect(calls).toEqual(['users-unregisterDevice', 'chat removeDevice fcm-token-1', 'sign out']);
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('on the web only signs out', async () => {
    const { push, call } = setup(undefined);
    push.start('u1');
    const signOut = vi.fn(async () => undefined);
    await logoutWithPush(push, signOut);
    expect(call).not.toHaveBeenCalled();
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('undoes a registration that finishes after logout', async () => {
    let release: () => void = () => undefined;
    const { push } = setup(fakeBridge(), async (name, data) => {
      calls.push(`${name} ${JSON.stringify(data)}`);
      if (name === 'users-registerDevice') await new Promise<void>((r) => (release = r));
      return null;
    });
    push.start('u1');
    await vi.advanceTimersByTimeAsync(200);
    await push.destroy();
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.at(-1)).toBe('users-unregisterDevice {"id":"dev-1"}');
    expect(push.getSnapshot().registered).toBe(false);
  });
});
