import type { Channel, Message } from '@caseroom/protocol';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { channelTitle } from '../channelInfo';
import { formatFullTime, formatMessageTime } from '../format';
import { highlightedSnippet } from './highlight';

interface SearchResultItemProps {
  client: ChatClient;
  viewerId: string;
  /** A `GET /search` result: the message with the channel it is in. */
  message: Message & { channel?: Channel };
  query: string;
  /** Across channels the result names its channel. */
  showChannel: boolean;
  onPick: () => void;
}

/** One search result: channel (across chats), sender, time, and the text around the match with the match marked. */
export function SearchResultItem({
  client,
  viewerId,
  message,
  query,
  showChannel,
  onPick,
}: SearchResultItemProps) {
  const sender = message.user?.name?.trim() || message.user?.id || message.user_id || '';
  const channelName = showChannel ? resultChannelName(client, viewerId, message) : undefined;
  const time = formatMessageTime(message.created_at);
  const parts = highlightedSnippet(message.text ?? '', query);
  return (
    <button type="button" className="search-result" onClick={onPick} data-message-id={message.id}>
      {channelName ? <span className="search-result-channel">{channelName}</span> : null}
      <span className="search-result-meta">
        <span className="search-result-sender">{sender}</span>
        <time dateTime={message.created_at} title={formatFullTime(message.created_at)}>
          {time}
        </time>
      </span>
      <span className="search-result-text">
        {parts.map((part, i) =>
          part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
        )}
      </span>
    </button>
  );
}

/** The channel's title as the list shows it: its name, else its other members (from the held channel). */
function resultChannelName(
  client: ChatClient,
  viewerId: string,
  message: Message & { channel?: Channel },
): string {
  const [type = '', ...rest] = message.cid.split(':');
  const held = client.channel(type, rest.join(':')).state.getSnapshot();
  return channelTitle(
    held.channel ?? message.channel,
    held.members,
    viewerId,
    t('chat.search.unknownChannel'),
  );
}
