export {
  ChatClient,
  type ChatClientOptions,
  type ConnectionSnapshot,
  type UserToConnect,
} from './client/chat-client.js';
export type { EventHandler } from './client/event-emitter.js';
export { ChatChannel, type ChannelData } from './channels/channel.js';
export type { ChannelSnapshot } from './channels/channel-state.js';
export {
  ChannelList,
  type ChannelListItem,
  type ChannelListOptions,
  type ChannelListSnapshot,
  type ChannelSort,
} from './channels/channel-list.js';
export { matchesFilter, type ChannelFilter } from './channels/filter.js';
export {
  newMessageId,
  type LocalMessage,
  type MessageDraft,
  type MessageError,
  type MessageStatus,
} from './messages/local-message.js';
export type { MessageSet, MessageSets } from './messages/message-sets.js';
export { Notifications, NOTICE_TEXTS, type Notice, type NoticeInput } from './notifications/notifications.js';
export type { Store } from './stores/store.js';
export { ChatApiError } from './transport/errors.js';
export type { Logger, LogLevel } from './transport/logger.js';
export type { TokenProvider } from './transport/token-manager.js';
export type { WebSocketConstructor, WebSocketLike } from './transport/websocket.js';
export type { OwnUser, ChatUser, Message, Channel, ChannelMember, ChatEvent } from '@caseroom/protocol';
export { groupPositions, type GroupOptions, type GroupPosition } from './messages/group-positions.js';
export {
  containsLink,
  isComposerTextEmpty,
  keepMentions,
  sendBlockReason,
  trimComposerText,
  type SendBlockReason,
  type SendCheckInput,
} from './composer/text.js';
