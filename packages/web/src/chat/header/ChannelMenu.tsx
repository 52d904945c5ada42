import { useState, type FormEvent } from 'react';
import type { Channel } from '@caseroom/protocol';
import type { ChatClient } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { MoreIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { useMenuButton } from '../../ui/useMenuButton';
import { ChannelListMenuItems } from './ChannelListMenuItems';

/** The slow-mode choices in seconds (0 is off). */
const SLOW_MODE_CHOICES = [0, 10, 30, 60, 300, 900] as const;

interface ChannelMenuProps {
  client: ChatClient;
  channel: Channel;
}

/**
 * The channel's own menu in the header: the member's own list state (pin, mute, archive, hide) for everyone,
 * and "Slow mode" for those with `set-channel-cooldown` (team members moderate the product's chats).
 */
export function ChannelMenu({ client, channel }: ChannelMenuProps) {
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState(false);
  // The WAI-ARIA menu button, placed so it stays on screen, Escape closing it and not the popup around it.
  const menu = useMenuButton({ open, onOpenChange: setOpen });
  const canSlowMode = channel.own_capabilities.includes('set-channel-cooldown');

  return (
    <div className="channel-menu">
      <button
        {...menu.triggerProps}
        type="button"
        className="icon-button"
        aria-label={t('chat.channelMenu.label')}
      >
        <MoreIcon />
      </button>
      {open ? (
        <div {...menu.menuProps} className="popover menu" aria-label={t('chat.channelMenu.label')}>
          <ChannelListMenuItems client={client} channel={channel} onDone={() => setOpen(false)} />
          {canSlowMode ? (
            <button
              type="button"
              role="menuitem"
              className="menu-item"
              onClick={() => {
                setOpen(false);
                setDialog(true);
              }}
            >
              {t('chat.slowMode.title')}
            </button>
          ) : null}
        </div>
      ) : null}
      {dialog ? <SlowModeDialog client={client} channel={channel} onClose={() => setDialog(false)} /> : null}
    </div>
  );
}

function SlowModeDialog({ client, channel, onClose }: ChannelMenuProps & { onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const current = channel.cooldown ?? 0;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const cooldown = Number(new FormData(event.currentTarget).get('cooldown') ?? 0);
    setBusy(true);
    setError(undefined);
    try {
      const instance = client.channel(channel.type, channel.id);
      await (cooldown > 0 ? instance.enableSlowMode(cooldown) : instance.disableSlowMode());
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <Modal title={t('chat.slowMode.title')} onClose={onClose} className="modal-small">
      <form onSubmit={(e) => void submit(e)}>
        <fieldset className="choice-list">
          <legend>{t('chat.slowMode.explain')}</legend>
          {SLOW_MODE_CHOICES.map((seconds) => (
            <label key={seconds} className="choice">
              <input type="radio" name="cooldown" value={seconds} defaultChecked={seconds === current} />
              {seconds === 0 ? t('chat.slowMode.off') : slowModeLabel(seconds)}
            </label>
          ))}
        </fieldset>
        {error ? (
          <p className="inline-error" role="alert">
            {t('chat.slowMode.error', { message: error })}
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('ui.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('domain.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function slowModeLabel(seconds: number): string {
  return seconds < 60
    ? t('chat.slowMode.seconds', { count: seconds })
    : t('chat.slowMode.minutes', { count: seconds / 60 });
}
