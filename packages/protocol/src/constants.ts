/**
 * Business constants shared by server, SDK and web (chat-spec §9, product-spec §9).
 * One definition each; nothing else in the repo hard-codes these numbers.
 */
export const CHAT_LIMITS = {
  /** Default page of messages (chat-spec §9). */
  messagePageSize: 25,
  /** The virtual list keeps at most 4 pages (chat-spec §9). */
  messageWindowMax: 100,
  /** Channel page size of `POST /chat/channels` (chat-spec §7). */
  channelPageSize: 25,
  /** Largest page any query accepts. */
  maxQueryLimit: 300,
  /** Channel list re-query on connection recovery. */
  recoveryChannelLimit: 30,
  /** Replies per page in a thread. */
  threadReplyPageSize: 50,
  /** Our chosen send length limit (chat-spec §5 leaves the value open; documented in docs/decisions.md). */
  maxMessageLength: 5000,
  /** Mark unread reaches back at most this many main-list messages (chat-spec §5 "only the first N"). */
  markUnreadWindow: 100,
  /** Attachments per message. */
  maxAttachments: 30,
  /** Channel and channel-type ids: letters, digits and `!-_`, at most 64 characters. */
  maxChannelIdLength: 64,
  /** Custom data of one message: `custom` and the unknown top-level fields that become custom data (JSON bytes). */
  maxMessageCustomBytes: 5 * 1024,
  /** Custom data of one user (JSON bytes). */
  maxUserCustomBytes: 5 * 1024,
  /** Custom data of one channel (JSON bytes; the product keeps case-plan and organization ids there). */
  maxChannelCustomBytes: 5 * 1024,
  /** A mute lasts at most this long (100 years, in ms); longer is "until unmuted" (no expiration). */
  maxMuteExpirationMs: 100 * 365 * 24 * 60 * 60 * 1000,
  /** Custom fields of one reaction (JSON bytes): a reaction is small. */
  maxReactionCustomBytes: 1024,
  /** Custom fields of one thread (JSON bytes). */
  maxThreadCustomBytes: 5 * 1024,
  /** Query filters: `$and` / `$or` / `$nor` nest at most this deep. */
  maxFilterDepth: 8,
  /** Query filters: at most this many conditions (field-operator pairs) in all. */
  maxFilterConditions: 100,
  /** Query filters: at most this many values in one `$in` / `$nin`. */
  maxFilterValues: 1000,
} as const;

/** Limits on any request of the chat and product APIs (see input.ts). */
export const INPUT_LIMITS = {
  /** JSON objects and arrays nest at most this deep in a request. */
  maxJsonDepth: 32,
} as const;

export const CHAT_TIMING = {
  wsPingIntervalMs: 25_000,
  connectionCheckTimeoutMs: 35_000,
  reconnectBackoffMaxMs: 25_000,
  initialConnectTimeoutMs: 15_000,
  initialConnectTimeoutWithFallbackMs: 6_000,
  longPollTimeoutMs: 30_000,
  longPollConnectTimeoutMs: 8_000,
  httpTimeoutMs: 3_000,
  typingStartIntervalMs: 2_000,
  typingExpiryMs: 7_000,
  markReadThrottleMs: 1_050,
  markThreadReadThrottleMs: 1_000,
  searchDebounceMs: 300,
  notificationDurationMs: 5_000,
  highlightClearMs: 1_000,
  jumpCompleteMs: 200,
  jumpToLatestReappearMs: 100,
} as const;

/** Attachments, uploads, link previews and voice recordings (chat-spec §5, §9). */
export const ATTACHMENT_CONSTANTS = {
  /** Upload size limit when the app config sets none: 100 MiB; shown as "100MB" when unknown. */
  defaultSizeLimitBytes: 100 * 1024 * 1024,
  fallbackSizeLimitText: '100MB',
  /** A gallery forms at 2 or more images and shows 4 tiles (3 and "+N more"). */
  galleryThreshold: 2,
  galleryTiles: 4,
  /** Image resize requests ask for twice the CSS size; unknown original size counts as 1,000,000. */
  resizeFactor: 2,
  defaultOriginalSize: 1_000_000,
  giphyDefaultHeightPx: 300,
  /** Link previews: the composer waits this long after typing before enriching. */
  linkPreviewDebounceMs: 1_500,
  /** Voice recording (chat-spec §9). */
  voiceWaveBars: 40,
  voiceSampleCount: 100,
  voiceSampleIntervalMs: 60,
  voiceFftSize: 32,
  voiceMinDecibels: -100,
  voiceMaxDecibels: 0,
  voiceWaveformUpdateThreshold: 0.02,
  wavSampleRate: 16_000,
  wavBitsPerSample: 16,
  wavHeaderBytes: 44,
  playbackRates: [1, 1.5, 2],
  /** Uploads never attached to a message are deleted after this long. */
  unattachedUploadTtlMs: 24 * 60 * 60 * 1000,
} as const;

export const PRODUCT_CONSTANTS = {
  caseplanLoadTimeoutMs: 10_000,
  pushToastDurationMs: 5_000,
  mobileBreakpointPx: 576,
  participantsPreview: 3,
  newAccountThresholdMs: 1_000,
  magicLinkPath: '/_action',
  magicLinkStorageKey: 'magicLinkEmail',
} as const;

/** Default reaction types (chat-spec §3). */
export const DEFAULT_REACTION_TYPES = ['haha', 'like', 'love', 'sad', 'wow'] as const;
