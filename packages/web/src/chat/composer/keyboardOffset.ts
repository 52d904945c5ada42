import { useEffect, useState } from 'react';

/** Where the app runs: a native shell (Android, iOS) or the browser. */
export type Platform = 'android' | 'ios' | 'web';

/** product-spec §9: the input rises by the keyboard height minus 44 (Android) or 280 (iOS). */
export const KEYBOARD_OFFSET_SUBTRACT = { android: 44, ios: 280 } as const;

/**
 * How far the popup's input rises over the on-screen keyboard (product-spec §2): on a native platform the
 * keyboard height minus 44 (Android) or 280 (iOS), never below 0; nothing in a browser, which resizes the
 * viewport itself.
 */
export function keyboardOffset(keyboardHeight: number, platform: Platform): number {
  if (platform === 'web' || !(keyboardHeight > 0)) return 0;
  return Math.max(0, Math.round(keyboardHeight - KEYBOARD_OFFSET_SUBTRACT[platform]));
}

/**
 * The platform flag. The app has no native shell yet; a Capacitor-style shell announces itself as
 * `window.Capacitor.getPlatform()`, which is read when present.
 */
export function currentPlatform(): Platform {
  const shell = (globalThis as { Capacitor?: { getPlatform?: () => string } }).Capacitor;
  const name = shell?.getPlatform?.();
  return name === 'android' || name === 'ios' ? name : 'web';
}

/**
 * The keyboard offset now, kept up from `window.visualViewport`: the keyboard is the part of the layout
 * viewport the visual viewport no longer covers.
 */
export function useKeyboardOffset(platform: Platform = currentPlatform()): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const viewport = typeof window === 'undefined' ? undefined : window.visualViewport;
    if (platform === 'web' || !viewport) return;
    const update = () => {
      const keyboard = window.innerHeight - viewport.height - viewport.offsetTop;
      setOffset(keyboardOffset(keyboard, platform));
    };
    update();
    viewport.addEventListener('resize', update);
    viewport.addEventListener('scroll', update);
    return () => {
      viewport.removeEventListener('resize', update);
      viewport.removeEventListener('scroll', update);
    };
  }, [platform]);
  return offset;
}
