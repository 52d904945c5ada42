import type { Channel, ChannelMember } from '@caseroom/protocol';

/** The case-plan ids a channel is tied to (custom data `caseplans`, product-spec §3). */
export function channelCaseplans(channel: Channel | undefined): string[] {
  const value: unknown = channel?.['caseplans'];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Splits channels into those tied to the selected case plan and the rest, keeping their order. */
export function groupByCaseplan<T extends { channel: Channel }>(
  entries: readonly T[],
  caseplanId: string | null,
): { inCaseplan: T[]; other: T[] } {
  const inCaseplan: T[] = [];
  const other: T[] = [];
  for (const entry of entries) {
    if (caseplanId && channelCaseplans(entry.channel).includes(caseplanId)) inCaseplan.push(entry);
    else other.push(entry);
  }
  return { inCaseplan, other };
}

/** Display name of a member: the chat user's name, else the user id. */
export function memberName(member: ChannelMember): string {
  return member.user?.name?.trim() || member.user_id;
}

/** The members other than the viewer. */
export function otherMembers(members: readonly ChannelMember[], viewerId: string): ChannelMember[] {
  return members.filter((m) => m.user_id !== viewerId);
}

/**
 * A channel's title: its `name` when set, else the other members' names (first three, then "+ N more"),
 * else `fallback`.
 */
export function channelTitle(
  channel: Channel | undefined,
  members: readonly ChannelMember[],
  viewerId: string,
  fallback: string,
): string {
  const name = typeof channel?.name === 'string' ? channel.name.trim() : '';
  if (name) return name;
  const names = otherMembers(members, viewerId).map(memberName);
  if (names.length === 0) return fallback;
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} + ${names.length - 3} more` : shown;
}

/**
 * The channel list's preview of the newest message: its text, the deleted display when it was deleted (its text
 * is gone; `removed` when a moderator removed it), or the empty-channel text when there is none.
 */
export function channelPreview(
  message: { type?: string; text?: string; moderation_details?: { action: string } } | undefined,
  labels: { none: string; deleted: string; removed?: string },
): string {
  if (message?.type === 'deleted') {
    return message.moderation_details?.action === 'removed' && labels.removed
      ? labels.removed
      : labels.deleted;
  }
  return message?.text?.trim() || labels.none;
}
