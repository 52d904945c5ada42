import { useId, type ReactNode } from 'react';
import type { Channel, ChannelMember, ChatUser } from '@caseroom/protocol';
import { t } from '../../i18n/t';
import { BackIcon, CloseIcon, PeopleIcon, ThreadIcon } from '../../ui/icons';
import { initialOf } from '../format';
import { participantsOf, previewParticipants, roleBadge, type Participant } from '../participants';
import { ParticipantName } from './ParticipantName';
import { ParticipantsMore } from './ParticipantsMore';
import './channelHeader.css';

interface ChannelHeaderProps {
  channel: Channel;
  members: readonly ChannelMember[];
  viewerId: string;
  /** The viewer's chat user (for the client badge rule); members are looked up first. */
  viewer: ChatUser | undefined;
  title: string;
  titleId: string;
  /** Popup mode shows a close icon instead of the back link. */
  onClose?: () => void;
  onBack?: () => void;
  threadsOpen: boolean;
  unreadThreads: number;
  onToggleThreads: () => void;
  /** The channel's menu (slow mode, for moderators), before the close icon. */
  menu?: ReactNode;
}

/**
 * The channel header (product-spec §2): avatar or people icon, the first three other participants (clients
 * bold, guests italic) with '+ N more', the role badge, 'Archived' when frozen, and the close icon in a popup.
 */
export function ChannelHeader(props: ChannelHeaderProps) {
  const { channel, members, viewerId, title, titleId, onClose, onBack } = props;
  const participants = participantsOf(channel, members, viewerId);
  const { shown, more } = previewParticipants(participants);
  const viewerUser = members.find((m) => m.user_id === viewerId)?.user ?? props.viewer;
  const badge = roleBadge(channel, viewerUser);
  const namesId = useId();
  const twoMember = members.length === 2 && participants.length === 1;

  return (
    <header className="channel-header">
      {onBack ? (
        <button
          type="button"
          className="icon-button channel-back"
          aria-label={t('chat.channel.back')}
          onClick={onBack}
        >
          <BackIcon />
        </button>
      ) : null}
      {twoMember && participants[0] ? (
        <Avatar participant={participants[0]} />
      ) : (
        <span className="avatar avatar-icon" aria-hidden="true">
          <PeopleIcon />
        </span>
      )}
      <div className="channel-heading">
        <div className="channel-title-row">
          <h2 id={titleId} className="channel-title" title={title}>
            {title}
          </h2>
          {badge ? (
            <span className={`chip chip-${badge}`} data-testid="role-badge">
              {t(`chat.badge.${badge}`)}
            </span>
          ) : null}
          {channel.frozen ? <span className="chip chip-archived">{t('chat.channel.archived')}</span> : null}
        </div>
        {participants.length > 0 ? (
          <div className="channel-participants" id={namesId}>
            <span className="visually-hidden">{t('chat.participants.with')} </span>
            {shown.map((p, i) => (
              <span key={p.id}>
                {i > 0 ? ', ' : ''}
                <ParticipantName participant={p} />
              </span>
            ))}
            {more > 0 ? (
              <>
                {' '}
                <ParticipantsMore participants={participants} more={more} />
              </>
            ) : null}
          </div>
        ) : null}
      </div>
      <div className="channel-header-actions">
        <button
          type="button"
          className="icon-button"
          aria-pressed={props.threadsOpen}
          aria-label={
            props.unreadThreads > 0
              ? t('chat.threads.toggleUnread', { count: props.unreadThreads })
              : t('chat.threads.toggle')
          }
          onClick={props.onToggleThreads}
        >
          <ThreadIcon />
          {props.unreadThreads > 0 ? <span className="dot-badge">{props.unreadThreads}</span> : null}
        </button>
        {props.menu}
        {onClose ? (
          <button type="button" className="icon-button" aria-label={t('chat.popup.close')} onClick={onClose}>
            <CloseIcon />
          </button>
        ) : null}
      </div>
    </header>
  );
}

function Avatar({ participant }: { participant: Participant }) {
  if (participant.image) return <img className="avatar" src={participant.image} alt="" />;
  return (
    <span className="avatar" aria-hidden="true" data-testid="header-initial">
      {initialOf(participant.name)}
    </span>
  );
}
