/**
 * Who may read a channel and its messages: the one rule (DESIGN "Who may read (one rule)", as Zulip's
 * `has_message_access`). The rule is written once below as data ({@link Cond} trees) and read two ways: as SQL over
 * table aliases ({@link condSql}, for every bulk read and every event audience) and as a JS predicate over rows
 * ({@link condHolds}, for single reads already in memory). `read-access.test.ts` runs both forms on the same rows
 * (in PGlite) and checks they agree. A second copy of this rule anywhere else is a bug.
 */

/** The rows a rule speaks of. */
export type RowName = 'member' | 'channel' | 'message' | 'event';

/** A column of one of those rows. */
export interface Ref {
  row: RowName;
  col: string;
}

/** A condition on rows, as data. */
export type Cond =
  | { op: 'false'; ref: Ref } // a boolean column is false
  | { op: 'true'; ref: Ref } // a boolean column is true
  | { op: 'null'; ref: Ref }
  | { op: 'notNull'; ref: Ref }
  | { op: 'notBefore'; ref: Ref; than: Ref } // ref >= than (both set)
  | { op: 'afterUnlessNull'; ref: Ref; than: Ref } // than is null, or ref > than
  | { op: 'all'; of: Cond[] }
  | { op: 'any'; of: Cond[] }
  // No row of `table` whose columns equal the refs (or the viewer's id): a per-viewer exclusion list.
  | { op: 'noRow'; table: 'chat_message_hidden'; match: Record<string, Ref | 'viewer'> };

const member = (col: string): Ref => ({ row: 'member', col });
const channel = (col: string): Ref => ({ row: 'channel', col });
const message = (col: string): Ref => ({ row: 'message', col });
const event = (col: string): Ref => ({ row: 'event', col });

/**
 * The member row (`chat_members`) of a reader: it exists (the caller joins it), the member is not banned, and they
 * are not an invitee whose invite is pending or rejected (not invited, or the invite accepted). Readers get the
 * channel's events; nobody else does.
 */
export const MEMBER_READS: Cond = {
  op: 'all',
  of: [
    { op: 'false', ref: member('banned') },
    {
      op: 'any',
      of: [
        { op: 'false', ref: member('invited') },
        { op: 'notNull', ref: member('invite_accepted_at') },
      ],
    },
  ],
};

/** The channel row (`chat_channels`) of a readable channel: not deleted. */
export const CHANNEL_READABLE: Cond = { op: 'null', ref: channel('deleted_at') };

/**
 * A message (`chat_messages`) inside a reader's view of its channel: after their view's cut-off (the channel's
 * truncation and the history they cleared). Pages, threads and search never return a message outside the view.
 */
export const MESSAGE_IN_VIEW: Cond = {
  op: 'all',
  of: [
    { op: 'afterUnlessNull', ref: message('created_at'), than: channel('truncated_at') },
    { op: 'afterUnlessNull', ref: message('created_at'), than: member('history_cleared_at') },
  ],
};

/**
 * A message the viewer did not delete for themselves (`chat_message_hidden`). Pages show such a message as
 * `deleted_for_me` without its content; search never matches it.
 */
export const MESSAGE_NOT_HIDDEN: Cond = {
  op: 'noRow',
  table: 'chat_message_hidden',
  match: { message_id: message('id'), user_id: 'viewer' },
};

/** A message whose content a reader of its channel sees: in their view and not hidden for them. */
export const MESSAGE_VISIBLE: Cond = { op: 'all', of: [MESSAGE_IN_VIEW, MESSAGE_NOT_HIDDEN] };

/**
 * A member row that shows its channel in the member's channel list when they ask for their invites (`invite`
 * filter): a reader's, or an invitee's (pending or rejected) who is not banned. Such an invitee sees the channel and
 * its members, never its messages or events.
 */
export const MEMBER_LISTS_INVITE: Cond = {
  op: 'any',
  of: [
    MEMBER_READS,
    {
      op: 'all',
      of: [
        { op: 'false', ref: member('banned') },
        { op: 'true', ref: member('invited') },
      ],
    },
  ],
};

/** A channel event (`chat_events`) sync returns to a member: not from before they joined. */
export const EVENT_SINCE_JOINED: Cond = {
  op: 'notBefore',
  ref: event('created_at'),
  than: member('created_at'),
};

// ---- the SQL form ----

/** Table aliases for the rows a condition names (a missing member alias = the bare column) and the viewer's id. */
export interface SqlScope {
  member?: string;
  channel?: string;
  message?: string;
  event?: string;
  /** SQL expression of the viewer's user id (a parameter such as `$1`, or a column). */
  viewer?: string;
}

/** The condition as a SQL boolean expression over the scope's aliases. */
export function condSql(cond: Cond, scope: SqlScope): string {
  const ref = (r: Ref): string => {
    const alias = scope[r.row];
    if (alias === undefined && r.row !== 'member') throw new Error(`read rule: no alias for ${r.row}`);
    return alias ? `${alias}.${r.col}` : r.col;
  };
  switch (cond.op) {
    case 'false':
      return `NOT ${ref(cond.ref)}`;
    case 'true':
      return ref(cond.ref);
    case 'null':
      return `${ref(cond.ref)} IS NULL`;
    case 'notNull':
      return `${ref(cond.ref)} IS NOT NULL`;
    case 'notBefore':
      return `${ref(cond.ref)} >= ${ref(cond.than)}`;
    case 'afterUnlessNull':
      return `(${ref(cond.than)} IS NULL OR ${ref(cond.ref)} > ${ref(cond.than)})`;
    case 'all':
      return `(${cond.of.map((c) => condSql(c, scope)).join(' AND ')})`;
    case 'any':
      return `(${cond.of.map((c) => condSql(c, scope)).join(' OR ')})`;
    case 'noRow': {
      // An alias named after the rows it is matched to, so nested uses do not collide and the text is stable.
      const refs = Object.values(cond.match).map((r) => (r === 'viewer' ? '' : (scope[r.row] ?? '')));
      const t = `nr_${refs.join('_').replace(/\W/g, '')}`;
      const eqs = Object.entries(cond.match).map(([col, r]) => {
        if (r !== 'viewer') return `${t}.${col} = ${ref(r)}`;
        if (!scope.viewer) throw new Error('read rule: no viewer');
        return `${t}.${col} = ${scope.viewer}`;
      });
      return `NOT EXISTS (SELECT 1 FROM ${cond.table} ${t} WHERE ${eqs.join(' AND ')})`;
    }
  }
}

// ---- the JS form ----

/** The rows a condition is checked against, the viewer's id, and the viewer's rows of the exclusion tables. */
export interface JsScope {
  member?: Record<string, unknown>;
  channel?: Record<string, unknown>;
  message?: Record<string, unknown>;
  event?: Record<string, unknown>;
  viewer?: string;
  related?: { chat_message_hidden?: ReadonlyArray<Record<string, unknown>> };
}

function time(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v.getTime() : new Date(v as string).getTime();
}

/** The condition checked in JS against rows (as the SQL form would check the same rows). */
export function condHolds(cond: Cond, scope: JsScope): boolean {
  const val = (r: Ref): unknown => {
    const row = scope[r.row];
    if (!row) throw new Error(`read rule: no ${r.row} row`);
    return row[r.col];
  };
  switch (cond.op) {
    case 'false':
      return val(cond.ref) === false;
    case 'true':
      return val(cond.ref) === true;
    case 'null':
      return val(cond.ref) === null || val(cond.ref) === undefined;
    case 'notNull':
      return val(cond.ref) !== null && val(cond.ref) !== undefined;
    case 'notBefore': {
      const a = time(val(cond.ref));
      const b = time(val(cond.than));
      return a !== null && b !== null && a >= b;
    }
    case 'afterUnlessNull': {
      const b = time(val(cond.than));
      const a = time(val(cond.ref));
      return b === null || (a !== null && a > b);
    }
    case 'all':
      return cond.of.every((c) => condHolds(c, scope));
    case 'any':
      return cond.of.some((c) => condHolds(c, scope));
    case 'noRow': {
      const rows = scope.related?.[cond.table] ?? [];
      return !rows.some((row) =>
        Object.entries(cond.match).every(([col, r]) => row[col] === (r === 'viewer' ? scope.viewer : val(r))),
      );
    }
  }
}

// ---- the rule's uses ----

/** A typed row as the rule reads it (no copy: these run on every read and send). */
const row = (r: object): Record<string, unknown> => r as Record<string, unknown>;

/**
 * SQL condition on a member row (alias `m`, or the bare table): may read the channel and receive its events.
 * Joining the member row is the caller's part (the member row must exist).
 */
export function readerSql(m?: string): string {
  return condSql(MEMBER_READS, m ? { member: m } : {});
}

/** SQL condition on channel row `c`: readable at all (not deleted). */
export function channelReadableSql(c: string): string {
  return condSql(CHANNEL_READABLE, { channel: c });
}

/** SQL condition: message `x` is not hidden for `viewer` (see {@link MESSAGE_NOT_HIDDEN}). */
export function messageNotHiddenSql(x: string, viewer: string): string {
  return condSql(MESSAGE_NOT_HIDDEN, { message: x, viewer });
}

/** SQL condition: channel `c` is readable through member row `m` (the channel not deleted and `m` a reader). */
export function readableChannelSql(c: string, m: string): string {
  return `(${condSql(CHANNEL_READABLE, { channel: c })} AND ${readerSql(m)})`;
}

/**
 * SQL condition: member row `m` (alias) of user `viewer` reads channel `cid` (an SQL expression), as
 * `EXISTS (...)`. For reads that do not join the viewer's member row themselves.
 */
export function readsChannelSql(cid: string, viewer: string, m = 'rm'): string {
  return `EXISTS (SELECT 1 FROM chat_members ${m} WHERE ${m}.cid = ${cid} AND ${m}.user_id = ${viewer} AND ${readerSql(m)})`;
}

/** The aliases a message condition speaks of: message, the viewer's member row, its channel, the viewer's id. */
export interface MessageScope {
  message: string;
  member: string;
  channel: string;
  viewer: string;
}

/**
 * SQL condition: message `x` is visible to viewer `viewer` whose member row is `m` in channel `c` (the viewer's
 * reading of the channel is checked separately, by {@link readerSql}).
 */
export function messageVisibleSql(scope: MessageScope): string {
  return condSql(MESSAGE_VISIBLE, scope);
}

/** SQL condition: message `x` is inside the viewer's view of channel `c` (see {@link MESSAGE_IN_VIEW}). */
export function messageInViewSql(scope: Omit<MessageScope, 'viewer'>): string {
  return condSql(MESSAGE_IN_VIEW, scope);
}

/** SQL condition on member row `m`: its channel shows in the member's list when they ask for invites. */
export function listsInviteSql(m: string): string {
  return condSql(MEMBER_LISTS_INVITE, { member: m });
}

/**
 * SQL condition: the viewer (`viewer`, an SQL expression) may see user `u` (an SQL expression of their id): it is
 * themselves, or the user has a member row in a channel the viewer reads. The same relation, read the other way,
 * is the audience of a user's events ({@link peersOfSql}).
 */
export function seesUserSql(viewer: string, u: string): string {
  return `(${u} = ${viewer} OR EXISTS (SELECT 1 FROM chat_members sv JOIN chat_channels sc ON sc.cid = sv.cid
    JOIN chat_members su ON su.cid = sv.cid
    WHERE sv.user_id = ${viewer} AND su.user_id = ${u} AND ${readableChannelSql('sc', 'sv')}))`;
}

/**
 * SQL: the users who may see user `u` (a parameter) besides themselves: readers of the channels the user has a
 * member row in (`user_id` column). The audience of `user.updated`, `user.presence.changed` and the other user
 * events.
 */
export function peersOfSql(u: string): string {
  return `SELECT DISTINCT pv.user_id FROM chat_members pu JOIN chat_channels pc ON pc.cid = pu.cid
    JOIN chat_members pv ON pv.cid = pu.cid WHERE pu.user_id = ${u} AND ${readableChannelSql('pc', 'pv')}`;
}

/**
 * SQL condition for `POST /chat/sync`: channel event `e` (alias) may go to user `viewer`: they read its channel
 * now, and the event is not from before they joined.
 */
export function syncEventReadableSql(e: string, viewer: string, m = 'sm'): string {
  return `EXISTS (SELECT 1 FROM chat_members ${m} WHERE ${m}.cid = ${e}.cid AND ${m}.user_id = ${viewer}
    AND ${readerSql(m)} AND ${condSql(EVENT_SINCE_JOINED, { event: e, member: m })})`;
}

/** Member state the rule reads (a `MemberRow` has it). */
export interface ReaderState {
  banned: boolean;
  invited: boolean;
  invite_accepted_at: Date | null;
}

/** True when the viewer may read the channel (its messages, members, events): see {@link MEMBER_READS}. */
export function canReadChannel(viewer: { member: ReaderState | undefined }): boolean {
  return viewer.member !== undefined && condHolds(MEMBER_READS, { member: row(viewer.member) });
}

/** True when the channel row is readable at all (not deleted). */
export function isChannelReadable(c: { deleted_at: Date | null }): boolean {
  return condHolds(CHANNEL_READABLE, { channel: row(c) });
}

/** True when message `msg` is visible to the viewer (see {@link MESSAGE_VISIBLE}); `hidden` = ids they hid. */
export function isMessageVisible(
  msg: { id: string; created_at: Date },
  viewer: {
    userId: string;
    member: { history_cleared_at: Date | null } | undefined;
    channel: { truncated_at: Date | null };
    hidden: ReadonlySet<string>;
  },
): boolean {
  return condHolds(MESSAGE_VISIBLE, {
    message: row(msg),
    member: { history_cleared_at: viewer.member?.history_cleared_at ?? null },
    channel: row(viewer.channel),
    viewer: viewer.userId,
    related: {
      chat_message_hidden: viewer.hidden.has(msg.id) ? [{ message_id: msg.id, user_id: viewer.userId }] : [],
    },
  });
}

/** True when message `msg` lies inside the viewer's view of its channel (see {@link MESSAGE_IN_VIEW}). */
export function isMessageInView(
  msg: { created_at: Date },
  viewer: { member: { history_cleared_at: Date | null } | undefined; channel: { truncated_at: Date | null } },
): boolean {
  return condHolds(MESSAGE_IN_VIEW, {
    message: row(msg),
    member: { history_cleared_at: viewer.member?.history_cleared_at ?? null },
    channel: row(viewer.channel),
  });
}

/**
 * Where the viewer's view of a channel starts, read off {@link MESSAGE_IN_VIEW} (every part of it is "the message
 * is after X, unless X is null"): the latest of those X, or null. For reads that page by a cut-off
 * (`created_at > cutoff`) rather than joining the rows.
 */
export function viewCutoff(viewer: {
  member: { history_cleared_at: Date | null } | undefined;
  channel: { truncated_at: Date | null };
}): Date | null {
  const scope: JsScope = {
    member: { history_cleared_at: viewer.member?.history_cleared_at ?? null },
    channel: row(viewer.channel),
  };
  const parts = MESSAGE_IN_VIEW.op === 'all' ? MESSAGE_IN_VIEW.of : [MESSAGE_IN_VIEW];
  let latest: number | null = null;
  for (const part of parts) {
    if (part.op !== 'afterUnlessNull' || part.ref.row !== 'message' || part.ref.col !== 'created_at') {
      throw new Error('read rule: MESSAGE_IN_VIEW is not a list of cut-offs');
    }
    const v = scope[part.than.row]?.[part.than.col];
    const t = v === null || v === undefined ? null : (v as Date).getTime();
    if (t !== null && (latest === null || t > latest)) latest = t;
  }
  return latest === null ? null : new Date(latest);
}

/** True when the viewer deleted message `id` for themselves (see {@link MESSAGE_NOT_HIDDEN}): shown without content. */
export function isHiddenFor(id: string, viewerId: string | undefined, hidden: ReadonlySet<string>): boolean {
  if (viewerId === undefined) return false;
  return !condHolds(MESSAGE_NOT_HIDDEN, {
    message: { id },
    viewer: viewerId,
    related: { chat_message_hidden: hidden.has(id) ? [{ message_id: id, user_id: viewerId }] : [] },
  });
}
