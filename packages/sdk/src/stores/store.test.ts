import { describe, expect, it, vi } from 'vitest';
import { StateStore } from './store.js';

describe('StateStore', () => {
  it('notifies subscribers on change and stops after unsubscribe', () => {
    const store = new StateStore({ n: 1 });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.set({ n: 2 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toEqual({ n: 2 });
    unsubscribe();
    store.set({ n: 3 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('keeps the snapshot reference when a patch changes nothing', () => {
    const store = new StateStore({ a: 1, b: 'x' });
    const before = store.getSnapshot();
    const listener = vi.fn();
    store.subscribe(listener);
    store.patch({ a: 1 });
    expect(store.getSnapshot()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
    store.patch({ b: 'y' });
    expect(store.getSnapshot()).toEqual({ a: 1, b: 'y' });
    expect(store.getSnapshot()).not.toBe(before);
  });

  it('has bound methods usable without the instance', () => {
    const store = new StateStore(5);
    const { getSnapshot, subscribe } = store;
    const listener = vi.fn();
    subscribe(listener);
    store.set(6);
    expect(getSnapshot()).toBe(6);
    expect(listener).toHaveBeenCalled();
  });
});
