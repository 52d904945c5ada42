import { t } from '../../i18n/t';
import type { Participant } from '../participants';

/** A first name, bold for a client and italic for a guest; the role is also said to screen readers. */
export function ParticipantName({ participant, full }: { participant: Participant; full?: boolean }) {
  const name = full ? participant.name : participant.firstName;
  const role = participant.role === 'member' ? '' : ` (${t(`chat.role.${participant.role}`)})`;
  if (participant.role === 'client') {
    return (
      <strong className="participant participant-client" data-role="client">
        {name}
        <span className="visually-hidden">{role}</span>
      </strong>
    );
  }
  if (participant.role === 'guest') {
    return (
      <em className="participant participant-guest" data-role="guest">
        {name}
        <span className="visually-hidden">{role}</span>
      </em>
    );
  }
  return (
    <span className="participant" data-role="member">
      {name}
    </span>
  );
}
