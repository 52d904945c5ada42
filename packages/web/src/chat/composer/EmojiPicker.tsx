import { useEffect, useRef } from 'react';
import { t } from '../../i18n/t';
import { dismissTopLayer } from '../../ui/layers';
import { useDismiss } from '../../ui/useDismiss';

/**
 * The emoji picker (emoji-mart, its data bundled: no CDN). Loaded on first use, so neither the picker nor its
 * data is part of the first load.
 */
export default function EmojiPicker({
  onPick,
  onClose,
}: {
  onPick: (native: string) => void;
  onClose: () => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useDismiss(host, true, onClose);

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
    <div ref={host} className="popover emoji-popover" role="dialog" aria-label={t('chat.composer.emoji')} />
  );
}
