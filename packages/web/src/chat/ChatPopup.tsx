import { useEffect, useId } from 'react';
import type { ChatClient } from '@caseroom/sdk';
import { Modal } from '../ui/Modal';
import { ChannelPanel } from './channel/ChannelPanel';
import { useKeyboardOffset } from './composer/keyboardOffset';
import './popupFit.css';

interface ChatPopupProps {
  client: ChatClient;
  viewerId: string;
  type: string;
  id: string;
  onClose: () => void;
}

/**
 * The chat popup (product-spec §2): a modal around the channel; it closes when the active channel changes to
 * another one, and the channel is deselected when it goes (ChannelPanel's unmount).
 */
export function ChatPopup({ client, viewerId, type, id, onClose }: ChatPopupProps) {
  const titleId = useId();
  // On a native platform the input rises over the keyboard (product-spec §2).
  const keyboard = useKeyboardOffset();
  useEffect(
    () =>
      client.activeChannel.subscribe(() => {
        const active = client.activeChannel.getSnapshot();
        if (active && active.cid !== undefined && active.cid !== `${type}:${id}`) onClose();
      }),
    [client, type, id, onClose],
  );
  return (
    <Modal title="" onClose={onClose} className="chat-popup" bare={{ titleId }}>
      <div className="chat-popup-body" style={keyboard ? { paddingBottom: keyboard } : undefined}>
        <ChannelPanel
          client={client}
          viewerId={viewerId}
          type={type}
          id={id}
          onClose={onClose}
          titleId={titleId}
        />
      </div>
    </Modal>
  );
}
