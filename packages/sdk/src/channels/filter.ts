import type { Channel, ChannelMember } from '@caseroom/protocol';

/** A query-channels filter (chat-spec §7): field conditions with $eq, $ne, $in, $nin, $exists, $gt.., $and, $or. */
export type ChannelFilter = Record<string, unknown>;

export interface FilterSubject {
  channel: Channel;
  members: readonly ChannelMember[];
  /** The viewer's own membership: `pinned`, `archived` and `joined` read it. */
  membership?: ChannelMember | undefined;
}

/**
 * Whether a channel matches a list's filter, so events only add channels the list would have
 * fetched (chat-spec §4). `members` matches member user ids; `pinned`, `archived`, `joined` the viewer's
 * membership; `muted` and `hidden` the viewer's flags on the channel; other fields read the channel data.
 * Unknown operators do not match: a list never shows a channel it cannot vouch for.
 */
export function matchesFilter(filter: ChannelFilter, subject: FilterSubject): boolean {
  return Object.entries(filter).every(([field, condition]) => {
    if (field === '$and') return asArray(condition).every((f) => matchesFilter(f, subject));
    if (field === '$or') return asArray(condition).some((f) => matchesFilter(f, subject));
    if (field === '$nor') return !asArray(condition).some((f) => matchesFilter(f, subject));
    return matchesField(fieldValue(field, subject), condition);
  });
}

function asArray(value: unknown): ChannelFilter[] {
  return Array.isArray(value) ? (value as ChannelFilter[]) : [];
}

function fieldValue(field: string, { channel, members, membership }: FilterSubject): unknown {
  if (field === 'members') return members.map((m) => m.user_id);
  if (field === 'member_count') return channel.member_count;
  // The viewer's own list state (server: store/channel-filter VIEWER_ONLY), false when absent.
  if (field === 'pinned') return membership?.pinned_at != null;
  if (field === 'archived') return membership?.archived_at != null;
  if (field === 'joined') return membership !== undefined;
  if (field === 'muted' || field === 'hidden') return channel[field] === true;
  return (channel as Record<string, unknown>)[field];
}

function matchesField(value: unknown, condition: unknown): boolean {
  if (!isOperatorObject(condition)) return equals(value, condition);
  return Object.entries(condition).every(([op, operand]) => {
    switch (op) {
      case '$eq':
        return equals(value, operand);
      case '$ne':
        return !equals(value, operand);
      case '$in':
        return Array.isArray(operand) && operand.some((o) => equals(value, o));
      case '$nin':
        return Array.isArray(operand) && !operand.some((o) => equals(value, o));
      case '$exists':
        return (value !== undefined && value !== null) === Boolean(operand);
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return compare(value, operand, op);
      case '$contains':
        return Array.isArray(value) && value.some((v) => equals(v, operand));
      default:
        return false;
    }
  });
}

/** Arrays match when any element matches (members: {$in: [...]}, caseplans: "id"). */
function equals(value: unknown, operand: unknown): boolean {
  if (Array.isArray(value)) return value.some((v) => equals(v, operand));
  return Object.is(value, operand);
}

function compare(value: unknown, operand: unknown, op: '$gt' | '$gte' | '$lt' | '$lte'): boolean {
  if (typeof value !== typeof operand || (typeof value !== 'number' && typeof value !== 'string'))
    return false;
  const a = value as number | string;
  const b = operand as number | string;
  if (op === '$gt') return a > b;
  if (op === '$gte') return a >= b;
  if (op === '$lt') return a < b;
  return a <= b;
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.keys(value).every((k) => k.startsWith('$'))
  );
}
