export {
  ChatClient,
  type ChatClientOptions,
  type ConnectionSnapshot,
  type UserToConnect,
} from './client/chat-client.js';
export type { EventHandler } from './client/event-emitter.js';
export { EventStream, type EventStreamHost } from './client/event-stream.js';
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
export { channelComparator, type ChannelSortSubject } from './channels/channel-sort.js';
export { ChannelListActions, type MuteOptions, type MuteStatus } from './channels/channel-list-actions.js';
export {
  newMessageId,
  type LocalMessage,
  type MessageDraft,
  type MessageError,
  type MessageStatus,
} from './messages/local-message.js';
export type { MessageSet, MessageSets } from './messages/message-sets.js';
export {
  AttachmentManager,
  type AttachmentsSnapshot,
  type AttachmentUploadState,
  type LocalAttachment,
  type LocalAttachmentMetadata,
  type VoiceRecordingInput,
} from './composer/attachment-manager.js';
export {
  ATTACHMENT_ERRORS,
  ATTACHMENT_TEXTS,
  attachmentTypeOf,
  checkUpload,
  uploadErrorReason,
  type UploadErrorReason,
  type UploadPermissionCheck,
} from './composer/attachment-checks.js';
export { uploadRecordOf, type UploadRecord } from './composer/local-attachments.js';
export type { UploadOptions, UploadProgress } from './transport/multipart.js';
export type { UploadBody } from './transport/uploads.js';
export { Notifications, NOTICE_TEXTS, type Notice, type NoticeInput } from './notifications/notifications.js';
export type { Store } from './stores/store.js';
export { ChatApiError } from './transport/errors.js';
export type { Logger, LogLevel } from './transport/logger.js';
export type { TokenProvider } from './transport/token-manager.js';
export type { WebSocketConstructor, WebSocketLike } from './transport/websocket.js';
export type {
  OwnUser,
  ChatUser,
  Message,
  Channel,
  ChannelMember,
  ChatEvent,
  Reaction,
  ModerationDetails,
} from '@caseroom/protocol';
/** A moderator's removal: `removedByModerator(message)` and the text every client shows for it. */
export { MESSAGE_REMOVED_TEXT, removedByModerator } from '@caseroom/protocol';
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
export { MessageActions, type MessageUpdate, type ReactionInput } from './messages/message-actions.js';
export { Devices, type PushDevice } from './client/devices.js';
export { FileCache, type BlobSize, type FileCacheStats } from './files/file-cache.js';
export { pinExpiresIso, type DeleteMode, type PinExpiry } from './messages/message-state.js';
export { Thread, THREAD_REPLY_PAGE, type ThreadSnapshot } from './threads/thread.js';
export { ThreadManager, type ThreadListSnapshot, type ThreadResponse } from './threads/thread-manager.js';
export {
  MessageComposer,
  type ComposerSnapshot,
  type ComposerTarget,
  type Suggestion,
} from './composer/message-composer.js';
export {
  activeTrigger,
  loadTransliteration,
  mentionScore,
  normalizeForSearch,
  searchUsers,
} from './composer/mention-search.js';
export { cooldownRemaining } from './composer/cooldown.js';
export {
  LinkPreviewManager,
  previewableLinks,
  type LinkPreview,
  type LinkPreviewStatus,
  type LinkPreviewsSnapshot,
} from './composer/link-preview-manager.js';
export {
  SearchController,
  SEARCH_PAGE_SIZE,
  type SearchSnapshot,
  type SearchSource,
  type SearchSourceState,
} from './search/search-controller.js';
export {
  channelSearchSource,
  memberSearchSource,
  messageSearchSource,
  userSearchSource,
} from './search/sources.js';
export { DeliveryReporter, type DeliveredMessage } from './read/delivery-reporter.js';
export { readBy, readByNames, readByText, READ_BY_NAMES_MAX } from './read/read-by.js';
export { UnreadTotal, type UnreadTotals } from './read/unread-total.js';
export {
  ENGLISH_DATE_LABELS,
  formatDateSeparator,
  formatMessageTime,
  localDayKey,
  withSeparators,
  type DateLabels,
  type MessageListItem,
  type SeparatorOptions,
} from './dates/separators.js';
export {
  REACTION_PAGE_SIZE,
  REACTIONS_FETCH_MAX,
  type ReactionPage,
  type ReactionQuery,
} from './messages/reactions-query.js';
export { ChannelMessageActions } from './channels/channel-message-actions.js';
export { canRecordVoice, chooseVoiceFormat, type VoiceFormat } from './voice/voice-format.js';
export {
  VoiceRecorder,
  VOICE_NOTICE_TEXTS,
  VOICE_RECORDER_DEFAULTS,
  VOICE_BITS_PER_SECOND,
  type RecordingState,
  type VoiceRecorderOptions,
  type VoiceRecorderSnapshot,
  type VoiceRecording,
} from './voice/voice-recorder.js';
export { browserMediaEnvironment, type MediaEnvironment } from './voice/media-environment.js';
export {
  amplitudeOf,
  barsChanged,
  formatVoiceDuration,
  liveBars,
  resampleWaveform,
} from './voice/waveform.js';
export { encodeWav, resamplePcm } from './voice/wav.js';
