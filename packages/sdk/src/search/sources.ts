import type { ChannelState, ChatUser, Message } from '@caseroom/protocol';
import type { ChatChannel } from '../channels/channel.js';
import type { ChannelFilter } from '../channels/filter.js';
import type { ChatClient } from '../client/chat-client.js';
import { loadTransliteration, searchUsers } from '../composer/mention-search.js';
import type { SearchSource } from './search-controller.js';

/** Messages matching the text (`GET /search`) in the channels matching `filter`. */
export function messageSearchSource(client: ChatClient, filter: ChannelFilter): SearchSource<Message> {
  return {
    type: 'messages',
    async fetch(query, { offset, limit }) {
      const payload = { filter_conditions: filter, query, limit, offset };
      const answer = await client.api.get<{ results: { message: Message }[] }>('/search', {
        query: { payload: JSON.stringify(payload) },
      });
      return answer.results.map((r) => r.message);
    },
  };
}

/** Channels whose name starts with the text (`POST /channels`), within `filter`. */
export function channelSearchSource(client: ChatClient, filter: ChannelFilter): SearchSource<ChannelState> {
  return {
    type: 'channels',
    async fetch(query, { offset, limit }) {
      const answer = await client.api.post<{ channels: ChannelState[] }>('/channels', {
        filter_conditions: { $and: [filter, { name: { $autocomplete: query } }] },
        sort: [{ field: 'last_message_at', direction: -1 }],
        limit,
        offset,
        state: true,
        watch: false,
        message_limit: 0,
      });
      return answer.channels;
    },
  };
}

/** Users by name or id prefix (`GET /users`, sorted by name then id), never the current user. */
export function userSearchSource(client: ChatClient): SearchSource<ChatUser> {
  return {
    type: 'users',
    async fetch(query, { offset, limit }) {
      const payload = {
        filter_conditions: { name: { $autocomplete: query } },
        sort: [{ field: 'name', direction: 1 }],
        limit,
        offset,
      };
      const answer = await client.api.get<{ users: ChatUser[] }>('/users', {
        query: { payload: JSON.stringify(payload) },
      });
      const me = client.me.getSnapshot()?.id;
      return answer.users.filter((u) => u.id !== me);
    },
  };
}

/** Members of a channel matching the text (from the channel's member list). */
export function memberSearchSource(client: ChatClient, channel: ChatChannel): SearchSource<ChatUser> {
  return {
    type: 'members',
    async fetch(query, { offset, limit }) {
      await loadTransliteration().catch(() => undefined);
      const users = channel.state.getSnapshot().members.map((m) => m.user ?? { id: m.user_id });
      const matches = searchUsers(users, query, client.me.getSnapshot()?.id, Number.MAX_SAFE_INTEGER);
      return matches.slice(offset, offset + limit);
    },
  };
}
