import { forwardRef, useCallback, useEffect, useMemo, useRef, useState, type HTMLAttributes } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { ChatUser, ReadState } from '@caseroom/protocol';
import { groupPositions, readBy, readByNames, withSeparators, type MessageListItem } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { MessageBubble } from '../message/MessageBubble';
import type { ChatMessage } from '../sdkTypes';
import { JumpToLatest, UnreadNotice } from './ListOverlays';
import { ListPlaceholder, LoadingRow } from './ListSkeleton';
import { rowsInDirection, type ListDirection } from './listDirection';
import { dateLabels } from './listLabels';
import { TypingIndicator } from './TypingIndicator';

/** chat-spec §9: a jumped-to message is highlighted for 1000 ms. */
export const HIGHLIGHT_MS = 1000;
/** Far from zero so older pages can be put in front (react-virtuoso `firstItemIndex`). */
const FIRST_INDEX = 1_000_000;
/** The unread separator's row key (SDK `withSeparators`): a `jump` to it scrolls there. */
export const UNREAD_KEY = 'unread';
/** Pixels kept above the unread line when the list opens there: the unread notice floats over the list's top. */
const UNREAD_NOTICE_SPACE = 56;

export interface MessageListProps {
  mode: 'main' | 'thread';
  messages: readonly ChatMessage[];
  viewerId: string;
  /** The first load is running (skeleton). */
  loading: boolean;
  hasPrev: boolean;
  hasNext: boolean;
  loadingTop: boolean;
  loadingBottom: boolean;
  onLoadPrev: () => void;
  onLoadNext: () => void;
  /** Brings the newest messages (a jump away from the latest set). */
  onJumpToLatest: () => Promise<void>;
  /** The viewer's last read message when the list opened: the unread separator follows it. */
  lastReadMessageId?: string | undefined;
  /** The viewer's unread messages when the list opened (the unread notice's count). */
  unreadCount: number;
  /** Brings the page around the last read message when the separator is not in the list any more. */
  onJumpToUnread?: (() => void) | undefined;
  /** Bumped for each message the viewer sends: the list scrolls to its newest message. */
  scrollToEnd?: number | undefined;
  read: Readonly<Record<string, ReadState>>;
  typing: readonly ChatUser[];
  onAtBottomChange?: (atBottom: boolean) => void;
  /** A message to scroll to and highlight (the seq makes repeats count). */
  jump?: { id: string; seq: number } | undefined;
  onHighlight: (id: string | undefined) => void;
  /** Newest at the bottom (default) or at the top. */
  direction?: ListDirection | undefined;
}

type Row = MessageListItem<ChatMessage>;

/**
 * A virtualized message list (react-virtuoso) over the SDK's message window (chat-spec §2, §4): date and unread
 * separators, group positions, loading rows top and bottom, the unread notice, the jump-to-latest button with a
 * count, the typing line, read-by under the viewer's newest read message, and jump highlights.
 */
export function MessageList(props: MessageListProps) {
  const { messages, viewerId, mode } = props;
  const direction = props.direction ?? 'bottom-to-top';
  const newestFirst = direction === 'top-to-bottom';
  const list = useRef<VirtuosoHandle>(null);
  // Opening at the unread line is not "at the newest" until react-virtuoso says so.
  const [atBottom, setAtBottom] = useState(!props.lastReadMessageId);
  const atNewest = useRef(atBottom);
  const [dismissed, setDismissed] = useState(false);
  const [newWhileAway, setNewWhileAway] = useState(0);
  const readToEnd = useReadToEnd(atBottom && !props.hasNext);
  const items = useMemo(
    () =>
      rowsInDirection(
        withSeparators(messages, {
          ...(props.lastReadMessageId ? { lastReadMessageId: props.lastReadMessageId } : {}),
          ownUserId: viewerId,
          labels: dateLabels(),
        }),
        direction,
      ),
    [messages, props.lastReadMessageId, viewerId, direction],
  );
  // Rows added at the end are live messages only when the list already showed the newest ones; a newer page
  // loaded below an older set (opened at the unread line) must not pull the list down to the newest.
  // The last row of a page loaded that way is remembered: following is off while it is still the last row.
  const shownLatest = useRef(!props.hasNext);
  const pageEnd = useRef<string | undefined>(undefined);
  const lastKey = items.at(-1)?.key;
  if (!shownLatest.current) pageEnd.current = lastKey;
  const followLive = lastKey !== pageEnd.current;
  useEffect(() => {
    shownLatest.current = !props.hasNext;
  });

  const positions = useMemo(
    () =>
      groupPositions(messages, props.lastReadMessageId ? { lastReadMessageId: props.lastReadMessageId } : {}),
    [messages, props.lastReadMessageId],
  );
  const readByText = useReadBy(messages, props.read, viewerId, mode);
  const firstItemIndex = useFirstItemIndex(items);
  const unreadIndex = items.findIndex((i) => i.kind === 'unread');

  // Count what arrives while the reader is away from the bottom.
  const lastId = messages.at(-1)?.id;
  const seenLast = useRef(lastId);
  useEffect(() => {
    if (lastId === seenLast.current) return;
    seenLast.current = lastId;
    if (!atBottom) setNewWhileAway((n) => n + 1);
  }, [lastId, atBottom]);

  const scrollToKey = useCallback(
    (key: string) => {
      const at = items.findIndex((i) => i.key === key);
      if (at >= 0) list.current?.scrollToIndex({ index: at, align: 'center', behavior: 'auto' });
      return at >= 0;
    },
    [items],
  );

  // After a send: the newest message (the viewer's own) in view, then kept there while rows settle (status, read-by).
  const { scrollToEnd } = props;
  useEffect(() => {
    if (!scrollToEnd || newestFirst) return;
    setNewWhileAway(0);
    atNewest.current = true;
    const toEnd = () => list.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' });
    toEnd();
    const frame = requestAnimationFrame(toEnd);
    return () => cancelAnimationFrame(frame);
  }, [scrollToEnd, newestFirst]);

  // Jumps: scroll to the message and highlight it for a second.
  const { jump, onHighlight } = props;
  useEffect(() => {
    if (!jump || !scrollToKey(jump.id)) return;
    onHighlight(jump.id);
    const timer = setTimeout(() => onHighlight(undefined), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [jump, scrollToKey, onHighlight]);

  const toLatest = async () => {
    setNewWhileAway(0);
    if (props.hasNext) await props.onJumpToLatest();
    list.current?.scrollToIndex(
      newestFirst ? { index: 0, align: 'start' } : { index: 'LAST', align: 'end', behavior: 'auto' },
    );
  };

  if (messages.length === 0) {
    return (
      <div className="message-list-wrap">
        <ListPlaceholder loading={props.loading} mode={mode} />
        <TypingIndicator users={props.typing} />
      </div>
    );
  }

  const initialIndex = unreadIndex >= 0 ? unreadIndex : newestFirst ? 0 : items.length - 1;
  const loadOlder = () => {
    if (props.hasPrev && !props.loadingTop) props.onLoadPrev();
  };
  const loadNewer = () => {
    if (props.hasNext && !props.loadingBottom) props.onLoadNext();
  };
  const olderRow = props.loadingTop ? <LoadingRow label={t('chat.list.loadingOlder')} /> : null;
  const newerRow = props.loadingBottom ? <LoadingRow label={t('chat.list.loadingNewer')} /> : null;
  const edge = <div className="list-edge" />;
  return (
    <div className="message-list-wrap">
      {/* chat-spec §2: opened with unread messages, until dismissed or read to the newest (issue 15). */}
      {props.unreadCount > 0 && !dismissed && !readToEnd ? (
        <UnreadNotice
          count={props.unreadCount}
          onJump={() => {
            if (!scrollToKey(UNREAD_KEY)) props.onJumpToUnread?.();
          }}
          onDismiss={() => setDismissed(true)}
        />
      ) : null}
      <div
        className="message-log"
        role="log"
        aria-label={mode === 'main' ? t('chat.messages.label') : t('chat.thread.messages')}
        data-direction={direction}
      >
        <Virtuoso<Row>
          ref={list}
          className="message-scroller"
          data={items}
          firstItemIndex={firstItemIndex}
          initialTopMostItemIndex={{
            index: Math.max(0, initialIndex),
            align: unreadIndex >= 0 || newestFirst ? 'start' : 'end',
            // The unread line opens below the unread notice, not under it.
            ...(unreadIndex >= 0 && props.unreadCount > 0 ? { offset: -UNREAD_NOTICE_SPACE } : {}),
          }}
          computeItemKey={(_, item) => item.key}
          alignToBottom={!newestFirst}
          followOutput={(bottom) =>
            !newestFirst && followLive && (bottom || isOwn(messages.at(-1), viewerId)) ? 'auto' : false
          }
          atBottomThreshold={60}
          atTopThreshold={60}
          // "At the newest end": the bottom, or the top when the newest come first.
          {...{
            [newestFirst ? 'atTopStateChange' : 'atBottomStateChange']: (newest: boolean) => {
              atNewest.current = newest;
              setAtBottom(newest);
              if (newest) setNewWhileAway(0);
              props.onAtBottomChange?.(newest);
            },
          }}
          // A row at the bottom that grows (the sent message received, "Seen by" under it) stays in view.
          totalListHeightChanged={() => {
            if (atNewest.current && followLive && !newestFirst && !props.hasNext)
              list.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' });
          }}
          startReached={newestFirst ? loadNewer : loadOlder}
          endReached={newestFirst ? loadOlder : loadNewer}
          increaseViewportBy={{ top: 400, bottom: 200 }}
          components={{
            List: RowList,
            Item: RowItem,
            Header: () => (newestFirst ? newerRow : olderRow) ?? edge,
            Footer: () => (newestFirst ? olderRow : newerRow) ?? edge,
          }}
          itemContent={(_, item) => <RowContent item={item} position={positions} readBy={readByText} />}
        />
      </div>
      <JumpToLatest
        visible={!atBottom || props.hasNext}
        count={newWhileAway}
        onJump={() => void toLatest()}
      />
      <TypingIndicator users={props.typing} />
    </div>
  );
}

function RowContent({
  item,
  position,
  readBy,
}: {
  item: Row;
  position: Readonly<Record<string, string>> | Map<string, string>;
  readBy: { id: string; text: string } | undefined;
}) {
  if (item.kind === 'date') {
    return (
      <div className="separator separator-date">
        <span>{item.label}</span>
      </div>
    );
  }
  if (item.kind === 'unread') {
    return (
      <div className="separator separator-unread" data-testid="unread-separator">
        <span>{t('chat.list.unreadSeparator')}</span>
      </div>
    );
  }
  const pos =
    (position instanceof Map ? position.get(item.message.id) : position[item.message.id]) ?? 'single';
  return (
    <MessageBubble
      message={item.message}
      position={pos as 'single'}
      readBy={readBy?.id === item.message.id ? readBy.text : undefined}
    />
  );
}

const RowList = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function RowList(props, ref) {
  return <div {...props} ref={ref} role="list" className="message-rows" />;
});

function RowItem({
  children,
  item: _item,
  context: _context,
  ...props
}: HTMLAttributes<HTMLDivElement> & { item?: unknown; context?: unknown }) {
  return (
    <div {...props} role="listitem" className="message-row">
      {children}
    </div>
  );
}

/** True once `now` held: the reader was at the newest message of the latest set (so they read everything). */
function useReadToEnd(now: boolean): boolean {
  const [reached, setReached] = useState(now);
  useEffect(() => {
    if (now) setReached(true);
  }, [now]);
  return reached || now;
}

function isOwn(message: ChatMessage | undefined, viewerId: string): boolean {
  return Boolean(message) && (message?.user?.id ?? message?.user_id) === viewerId;
}

/** Keeps react-virtuoso's `firstItemIndex` in step when older rows are put in front. */
function useFirstItemIndex(items: readonly Row[]): number {
  const state = useRef<{ index: number; firstMessage?: string; at: number }>({ index: FIRST_INDEX, at: 0 });
  return useMemo(() => {
    const firstMessageAt = items.findIndex((i) => i.kind === 'message');
    const previous = state.current;
    if (previous.firstMessage) {
      const now = items.findIndex((i) => i.key === previous.firstMessage);
      if (now >= 0) previous.index -= now - previous.at;
      else previous.index = FIRST_INDEX;
    }
    previous.firstMessage = items[firstMessageAt]?.key;
    previous.at = firstMessageAt;
    return previous.index;
  }, [items]);
}

/** 'Seen by …' for the viewer's newest message that others read (chat-spec §2 read-by: 5 names then +N). */
function useReadBy(
  messages: readonly ChatMessage[],
  read: Readonly<Record<string, ReadState>>,
  viewerId: string,
  mode: 'main' | 'thread',
): { id: string; text: string } | undefined {
  return useMemo(() => {
    if (mode !== 'main') return undefined;
    const own = [...messages].reverse().find((m) => isOwn(m, viewerId) && m.status === 'received');
    if (!own) return undefined;
    const readers = readBy(own, read, viewerId).map((u) => ({
      id: u.id,
      name: u.name?.split(/\s+/)[0] || u.id,
    }));
    if (readers.length === 0) return undefined;
    const { names, rest } = readByNames(readers);
    const shown = names.join(', ');
    return {
      id: own.id,
      text:
        rest > 0 ? t('chat.readBy.more', { names: shown, count: rest }) : t('chat.readBy', { names: shown }),
    };
  }, [messages, read, viewerId, mode]);
}
