import type { ChannelMember } from '@caseroom/protocol';
import { Avatar } from '../ui/Avatar';
import { PeopleIcon } from '../ui/icons';
import { memberName, otherMembers } from './channelInfo';
import './channelAvatar.css';

/**
 * A chat's picture in the chat list (product-spec §2, as the header): the other person's avatar (photo or initials,
 * presence dot) in a two-member chat, a people icon otherwise. Decorative: the chat's title names the people.
 */
export function ChannelAvatar({
  members,
  viewerId,
}: {
  members: readonly ChannelMember[];
  viewerId: string;
}) {
  const others = otherMembers(members, viewerId);
  // Two members with the viewer among them: the other one.
  const other = members.length === 2 && others.length < 2 ? others[0] : undefined;
  return (
    <span className="channel-avatar">
      {other ? (
        <Avatar name={memberName(other)} image={other.user?.image} online={other.user?.online} />
      ) : (
        <span className="avatar avatar-icon" aria-hidden="true">
          <PeopleIcon />
        </span>
      )}
    </span>
  );
}
