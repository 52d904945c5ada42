import { useState } from 'react';
import { t } from '../i18n/t';
import { initialsOf } from './initials';
import './avatar.css';

interface AvatarProps {
  /** The person's name: the initials without a photo, and the text alternative when the avatar stands alone. */
  name: string;
  /** The photo's address (chat user `image`, product user `photo`); absent or failing to load = the initials. */
  image?: string | null | undefined;
  /** Presence: `true` shows the online dot; `false` or unknown shows none. */
  online?: boolean | undefined;
  size?: 'small' | 'medium' | 'large';
  /**
   * True (the default) where the name is written beside the avatar: the picture is then hidden from assistive
   * technology (no name read twice); the online dot keeps its text. False where the avatar is the only mention.
   */
  decorative?: boolean;
  className?: string;
}

/**
 * A person's avatar everywhere one is shown (messages, suggestions, reactions, participants, the chat list, the
 * start-chat dialog, the app header): their photo, else their initials, with a presence dot when they are online.
 */
export function Avatar({ name, image, online, size = 'medium', decorative = true, className }: AvatarProps) {
  // A photo that fails to load (deleted, no access) falls back to the initials instead of a broken image.
  const [failed, setFailed] = useState<string | null>(null);
  const photo = image && failed !== image ? image : null;
  const classes = ['avatar', `avatar-${size}`, className].filter(Boolean).join(' ');
  return (
    <span className="avatar-frame" data-testid="avatar" data-online={online ? 'true' : undefined}>
      {photo ? (
        <img
          className={classes}
          src={photo}
          alt={decorative ? '' : name}
          loading="lazy"
          decoding="async"
          onError={() => setFailed(photo)}
        />
      ) : (
        <span
          className={classes}
          data-testid="avatar-initials"
          {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name })}
        >
          {initialsOf(name)}
        </span>
      )}
      {online ? (
        <span className="presence-dot" data-testid="presence-dot">
          <span className="visually-hidden">{t('people.online', { name })}</span>
        </span>
      ) : null}
    </span>
  );
}
