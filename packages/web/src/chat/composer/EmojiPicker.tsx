import { useCallback, useEffect, useRef } from 'react';
import { t } from '../../i18n/t';
import { dismissTopLayer, useLayer } from '../../ui/layers';
import { usePopoverPosition } from '../../ui/usePopoverPosition';

/**
 * The emoji picker (emoji-mart, its data bundled: no CDN). Loaded on first use, so neither the picker nor its
 * data is part of the first load. A layer of the page's stack, placed above its button and kept on screen (it is
 * nearly as wide as a phone).
 */
export default function EmojiPicker({
  onPick,
  onClose,
  anchor,
}: {
  onPick: (native: string) => void;
  onClose: () => void;
  /** The emoji button: the picker sits by it, a press on it is not "outside", Escape gives it the focus back. */
  anchor?: HTMLElement | null;
}) {
  const host = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const position = usePopoverPosition(true, 'top-end', anchor ?? null);
  const { setFloating } = position;
  const hostRef = useCallback(
    (element: HTMLDivElement | null) => {
      host.current = element;
      setFloating(element);
    },
    [setFloating],
  );
  useLayer(true, {
    onDismiss: (reason) => {
      onClose();
      if (reason === 'escape') anchor?.focus();
    },
    contains: (target) => Boolean(host.current?.contains(target) || anchor?.contains(target)),
  });

  // emoji-mart's search field takes Escape to clear or leave the search; here, as everywhere, Escape closes the
  // top-most layer, which is this picker. Caught on the way in, before the field sees it.
  useEffect(() => {
    const element = host.current;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.isComposing) return;
      event.stopPropagation();
      event.preventDefault();
      dismissTopLayer('escape');
    };
    element?.addEventListener('keydown', onKey, true);
    return () => element?.removeEventListener('keydown', onKey, true);
  }, []);

  useEffect(() => {
    let cancelled = false;
    let element: HTMLElement | undefined;
    void Promise.all([import('emoji-mart'), import('@emoji-mart/data')]).then(([{ Picker }, data]) => {
      if (cancelled || !host.current) return;
      const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches;
      element = new Picker({
        data: data.default,
        theme: dark ? 'dark' : 'light',
        previewPosition: 'none',
        skinTonePosition: 'none',
        autoFocus: true,
        onEmojiSelect: (emoji: { native: string }) => pick.current(emoji.native),
      }) as unknown as HTMLElement;
      host.current.appendChild(element);
    });
    return () => {
      cancelled = true;
      element?.remove();
    };
  }, []);

  return (
    <div
      ref={hostRef}
      style={position.style}
      data-floating=""
      className="popover emoji-popover"
      role="dialog"
      aria-label={t('chat.composer.emoji')}
    />
  );
}
