// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { keyboardOffset, useKeyboardOffset } from './keyboardOffset';

describe('keyboard offset (product-spec §2, §9: 44 / 280)', () => {
  it('subtracts 44 on Android and 280 on iOS, never below 0, nothing on the web', () => {
    expect(keyboardOffset(300, 'android')).toBe(256);
    expect(keyboardOffset(300, 'ios')).toBe(20);
    expect(keyboardOffset(200, 'ios')).toBe(0);
    expect(keyboardOffset(30, 'android')).toBe(0);
    expect(keyboardOffset(300, 'web')).toBe(0);
    expect(keyboardOffset(0, 'android')).toBe(0);
  });

  describe('useKeyboardOffset', () => {
    const original = Object.getOwnPropertyDescriptor(window, 'visualViewport');
    afterEach(() => {
      if (original) Object.defineProperty(window, 'visualViewport', original);
      else Reflect.deleteProperty(window, 'visualViewport');
    });

    function fakeViewport(height: number) {
      const target = new EventTarget();
      const viewport = Object.assign(target, { height, offsetTop: 0 });
      Object.defineProperty(window, 'visualViewport', { configurable: true, value: viewport });
      return viewport;
    }

    it('follows the visual viewport on a native platform', () => {
      const viewport = fakeViewport(window.innerHeight);
      const { result } = renderHook(() => useKeyboardOffset('ios'));
      expect(result.current).toBe(0);
      act(() => {
        viewport.height = window.innerHeight - 336;
        viewport.dispatchEvent(new Event('resize'));
      });
      expect(result.current).toBe(56);
      const android = renderHook(() => useKeyboardOffset('android'));
      expect(android.result.current).toBe(292);
    });

    it('stays 0 in a browser', () => {
      fakeViewport(window.innerHeight - 336);
      const { result } = renderHook(() => useKeyboardOffset('web'));
      expect(result.current).toBe(0);
    });
  });
});
