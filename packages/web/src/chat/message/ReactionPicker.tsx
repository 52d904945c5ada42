import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { t } from '../../i18n/t';
import { useLayer } from '../../ui/layers';
import { usePopoverPosition } from '../../ui/usePopoverPosition';
import { useMessageListContext } from '../list/MessageListContext';
import type { ChatMessage } from '../sdkTypes';
import { REACTIONS } from './messageActions';

interface ReactionPickerProps {
  message: ChatMessage;
  /** The button it belongs to: it is placed there, and the focus goes back there when it closes. */
  anchor: HTMLElement | null;
  onClose: () => void;
}

/**
 * The reactions picker (chat-spec §3 default types: haha, like, love, sad, wow); a second pick removes. A layer
 * of the page's stack placed beside its button; the focus starts on the first reaction and the arrow keys move it.
 */
export function ReactionPicker({ message, anchor, onClose }: ReactionPickerProps) {
  const ctx = useMessageListContext();
  const ref = useRef<HTMLDivElement>(null);
  const position = usePopoverPosition(true, 'bottom-end', anchor);
  const { setFloating } = position;
  const setRef = useCallback(
    (element: HTMLDivElement | null) => {
      ref.current = element;
      setFloating(element);
    },
    [setFloating],
  );
  const close = (focusAnchor: boolean) => {
    onClose();
    if (focusAnchor) anchor?.focus();
  };
  useLayer(true, {
    onDismiss: (reason) => close(reason === 'escape'),
    contains: (target) => Boolean(ref.current?.contains(target) || anchor?.contains(target)),
  });
  useEffect(() => ref.current?.querySelector<HTMLElement>('button')?.focus({ preventScroll: true }), []);
  const own = new Set(message.own_reactions.map((r) => r.type));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLElement>('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? buttons.length - 1
          : step
            ? (at + step + buttons.length) % buttons.length
            : undefined;
    if (next === undefined) return;
    event.preventDefault();
    buttons[next]?.focus();
  };

  return (
    <div
      ref={setRef}
      style={position.style}
      data-floating=""
      className="popover reaction-picker"
      role="group"
      aria-label={t('chat.reactions.pick')}
      onKeyDown={onKeyDown}
    >
      {REACTIONS.map(({ type, emoji }) => (
        <button
          key={type}
          type="button"
          className="reaction-option"
          aria-pressed={own.has(type)}
          aria-label={t(`chat.reaction.${type}` as 'chat.reaction.like')}
          title={t(`chat.reaction.${type}` as 'chat.reaction.like')}
          onClick={(event) => {
            close(event.detail === 0); // from the keyboard: back to the button; a tap leaves the focus be
            toggleReaction(ctx.channel, message, type);
          }}
        >
          <span aria-hidden="true">{emoji}</span>
        </button>
      ))}
    </div>
  );
}

export function toggleReaction(
  channel: ReturnType<typeof useMessageListContext>['channel'],
  message: ChatMessage,
  type: string,
): void {
  const mine = message.own_reactions.some((r) => r.type === type);
  const done = mine ? channel.deleteReaction(message.id, type) : channel.sendReaction(message.id, { type });
  void done.catch(() => undefined);
}
