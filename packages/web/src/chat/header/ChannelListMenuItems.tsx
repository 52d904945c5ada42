import type { Channel } from '@caseroom/protocol';
import { useNavigate } from 'react-router-dom';
import type { ChatClient } from '@caseroom/sdk';
import { t, type MessageKey } from '../../i18n/t';
import { showToast } from '../../ui/toast';
import { useStore } from '../useStore';

interface ChannelListMenuItemsProps {
  client: ChatClient;
  channel: Channel;
  /** Closes the menu (called before the action runs). */
  onDone: () => void;
}

type Action = 'pin' | 'unpin' | 'mute' | 'unmute' | 'archive' | 'unarchive' | 'hide';

/**
 * The viewer's own list actions in the channel menu (issue 15): pin or unpin, mute or unmute (with the
 * `mute-channel` capability), archive or move out of the archive, hide until a new message (then back to the
 * list). Each says what happened, or the server's refusal, in a toast.
 */
export function ChannelListMenuItems({ client, channel, onDone }: ChannelListMenuItemsProps) {
  const navigate = useNavigate();
  const instance = client.channel(channel.type, channel.id);
  const state = useStore(instance.state);
  const pinned = Boolean(state.membership?.pinned_at);
  const archived = Boolean(state.membership?.archived_at);
  const muted = instance.muteStatus().muted;
  const canMute = channel.own_capabilities.includes('mute-channel');

  const run = (action: Action) => {
    onDone();
    const calls: Record<Action, () => Promise<unknown>> = {
      pin: () => instance.pin(),
      unpin: () => instance.unpin(),
      mute: () => instance.mute(),
      unmute: () => instance.unmute(),
      archive: () => instance.archive(),
      unarchive: () => instance.unarchive(),
      hide: () => instance.hide(),
    };
    calls[action]().then(
      () => {
        showToast(t(`chat.list.done.${action}` as MessageKey), 'info');
        // A hidden chat has left the list: back to it (a popup closes as the active channel changes).
        if (action === 'hide') void navigate('/app');
      },
      (error: unknown) =>
        showToast(
          t('chat.list.failed', { message: error instanceof Error ? error.message : String(error) }),
          'error',
        ),
    );
  };

  const items: Array<{ action: Action; label: MessageKey }> = [
    pinned ? { action: 'unpin', label: 'chat.list.unpin' } : { action: 'pin', label: 'chat.list.pin' },
    ...(canMute || muted
      ? [
          muted
            ? { action: 'unmute' as const, label: 'chat.list.unmute' as const }
            : { action: 'mute' as const, label: 'chat.list.mute' as const },
        ]
      : []),
    archived
      ? { action: 'unarchive', label: 'chat.list.unarchive' }
      : { action: 'archive', label: 'chat.list.archive' },
    { action: 'hide', label: 'chat.list.hide' },
  ];
  return (
    <>
      {items.map((item) => (
        <button
          key={item.action}
          type="button"
          role="menuitem"
          className="menu-item"
          data-action={item.action}
          onClick={() => run(item.action)}
        >
          {t(item.label)}
        </button>
      ))}
    </>
  );
}
