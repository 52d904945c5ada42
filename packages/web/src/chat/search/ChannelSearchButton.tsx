import { useState } from 'react';
import type { Message } from '@caseroom/protocol';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { SearchIcon } from '../channels/icons';
import { MessageSearchDialog } from './MessageSearchDialog';

interface ChannelSearchButtonProps {
  client: ChatClient;
  viewerId: string;
  cid: string;
  /** The channel's title, for the dialog's title. */
  name: string;
  /** Jumps to a result in this channel (the message list's jump: scroll and 1000 ms highlight). */
  onJump: (messageId: string) => void;
}

/** The channel header's search: messages of this channel only. */
export function ChannelSearchButton({ client, viewerId, cid, name, onJump }: ChannelSearchButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="icon-button channel-search-button"
        aria-label={t('chat.search.inChannel')}
        onClick={() => setOpen(true)}
      >
        <SearchIcon />
      </button>
      {open ? (
        <MessageSearchDialog
          client={client}
          viewerId={viewerId}
          scope={{ kind: 'channel', cid, name }}
          onClose={() => setOpen(false)}
          onPick={(message: Message) => {
            setOpen(false);
            onJump(message.id);
          }}
        />
      ) : null}
    </>
  );
}
