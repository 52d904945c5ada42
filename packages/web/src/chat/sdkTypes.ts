import type { ChatClient } from '@caseroom/sdk';

// Shapes the web app uses, derived from the SDK's own signatures so they follow it as it grows.

export type ChannelListHandle = ReturnType<ChatClient['channelList']>;
export type ChannelListSnapshot = ReturnType<ChannelListHandle['state']['getSnapshot']>;
export type ChannelListEntry = ChannelListSnapshot['channels'][number];
export type ChannelHandle = ReturnType<ChatClient['channel']>;
export type ChannelSnapshot = ReturnType<ChannelHandle['state']['getSnapshot']>;
export type ChatMessage = ChannelSnapshot['messages'][number];
export type ChatMember = ChannelSnapshot['members'][number];
export type ConnectionSnapshot = ReturnType<ChatClient['connection']['getSnapshot']>;
export type ComposerHandle = ChannelHandle['composer'];
export type ComposerSnapshot = ReturnType<ComposerHandle['state']['getSnapshot']>;
export type ComposerSuggestion = NonNullable<ComposerSnapshot['suggestions']>['items'][number];
export type ThreadHandle = ReturnType<ChatClient['threads']['thread']>;
export type ThreadSnapshot = ReturnType<ThreadHandle['state']['getSnapshot']>;
export type Notice = ReturnType<ChatClient['notifications']['getSnapshot']>[number];
