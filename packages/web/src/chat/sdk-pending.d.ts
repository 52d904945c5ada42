// Temporary: the agreed API of @caseroom/sdk, used only until the SDK package lands in packages/sdk.
// Delete this file as soon as `@caseroom/sdk` resolves to its own TypeScript source.
declare module '@caseroom/sdk' {
  import type { Channel, ChannelMember, Message } from '@caseroom/protocol';

  export interface Store<T> {
    getSnapshot(): T;
    subscribe(listener: () => void): () => void;
  }
  export type LocalMessage = Message & { status: 'sending' | 'received' | 'failed'; error?: unknown };
  export interface ConnectionState {
    status: 'idle' | 'connecting' | 'connected' | 'disconnected' | 'error';
    online: boolean;
    error?: string;
  }
  export interface ChannelListItem {
    cid: string;
    channel: Channel;
    members: ChannelMember[];
    lastMessage?: LocalMessage;
    unreadCount: number;
  }
  export interface ChannelListState {
    status: 'idle' | 'loading' | 'ready' | 'error';
    channels: ChannelListItem[];
    hasNext: boolean;
    error?: string;
  }
  export interface ChannelList {
    state: Store<ChannelListState>;
    load(): Promise<void>;
  }
  export interface ChannelStateSnapshot {
    channel?: Channel;
    members: readonly ChannelMember[];
    messages: readonly LocalMessage[];
    loading: boolean;
    error?: string;
    hasPrev: boolean;
  }
  export interface ChannelHandle {
    cid: string;
    state: Store<ChannelStateSnapshot>;
    watch(): Promise<unknown>;
    sendMessage(message: { text: string }): Promise<LocalMessage>;
    can(capability: string): boolean;
  }
  export class ChatClient {
    constructor(options: { apiKey: string; baseUrl: string });
    connection: Store<ConnectionState>;
    connectUser(user: { id: string; name?: string }, tokenProvider: () => Promise<string>): Promise<unknown>;
    channelList(options: { filter: Record<string, unknown> }): ChannelList;
    channel(type: string, id: string): ChannelHandle;
    disconnectUser(): Promise<void>;
  }
}
