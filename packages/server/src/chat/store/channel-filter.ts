import type { ChannelSortField } from '@caseroom/protocol';
import { inputError } from '../errors.js';
import { unreadSql } from './channels.js';
import {
  columnField,
  compileFilter,
  likeEscape,
  type FieldRule,
  type FilterSpec,
  type ValueKind,
} from './filter.js';

/**
 * Translates query-channels `filter_conditions` (chat-spec §7) into SQL over `chat_channels c`, with `vm` the
 * viewer's own membership row (when there is a viewer), through the one filter validator (store/filter.ts).
 *
 * Fields: columns (cid, id, type, team, name, frozen, disabled, cooldown, created_by_id, created_at, updated_at,
 * last_message_at, member_count), `members` (ids), the viewer's `hidden`, `pinned`, `archived`, `muted`,
 * `joined` and `invite`, and any other name as a custom field (an array custom field matches when it contains the
 * value). Operators: $eq $ne $in $nin $gt $gte $lt $lte $exists $autocomplete $and $or $nor.
 */
export class ChannelFilter {
  readonly params: unknown[] = [];
  private readonly spec: FilterSpec;

  constructor(hasViewer: boolean) {
    this.spec = {
      what: 'channels',
      fields: hasViewer ? VIEWER_FIELDS : FIELDS,
      logical: new Set(['$and', '$or', '$nor']),
      other: customField,
    };
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** SQL for a whole filter object (its keys are ANDed). */
  toSql(filter: Record<string, unknown>): string {
    return compileFilter(this.spec, filter, (v) => this.param(v));
  }
}

const ALL_OPS = ['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$autocomplete'];
const column = (sql: string, kind: ValueKind) => columnField(sql, kind, ALL_OPS);
const MEMBER_COUNT = '(SELECT count(*) FROM chat_members mc WHERE mc.cid = c.cid)';

const members: FieldRule = {
  kind: 'ids',
  ops: new Set(['$eq', '$in', '$nin']),
  build(op, value, p) {
    const ids = Array.isArray(value) ? (value as string[]) : [value as string];
    const any = `EXISTS (SELECT 1 FROM chat_members fm WHERE fm.cid = c.cid AND fm.user_id = ANY(${p(ids)}))`;
    if (op === '$in') return any;
    if (op === '$nin') return `NOT ${any}`;
    // $eq: exactly this set of members.
    return `(SELECT array_agg(fm.user_id ORDER BY fm.user_id) FROM chat_members fm WHERE fm.cid = c.cid)
            = (SELECT array_agg(x ORDER BY x) FROM unnest(${p([...new Set(ids)])}::text[]) x)`;
  },
};

const COLUMN_FIELDS: Array<[string, FieldRule]> = [
  ['cid', column('c.cid', 'text')],
  ['id', column('c.id', 'text')],
  ['type', column('c.type', 'text')],
  ['team', column('c.team', 'text')],
  ['name', column('c.name', 'text')],
  ['frozen', column('c.frozen', 'boolean')],
  ['disabled', column('c.disabled', 'boolean')],
  ['cooldown', column('c.cooldown', 'int')],
  ['created_by_id', column('c.created_by_id', 'text')],
  ['created_at', column('c.created_at', 'date')],
  ['updated_at', column('c.updated_at', 'date')],
  ['last_message_at', column('c.last_message_at', 'date')],
  ['member_count', column(MEMBER_COUNT, 'int')],
  ['members', members],
];

/** The viewer's own invites: `invite: 'pending' | 'accepted' | 'rejected'`. */
const INVITE_STATES = new Map([
  ['pending', 'vm.invited AND vm.invite_accepted_at IS NULL AND vm.invite_rejected_at IS NULL'],
  ['accepted', 'vm.invited AND vm.invite_accepted_at IS NOT NULL'],
  ['rejected', 'vm.invited AND vm.invite_rejected_at IS NOT NULL'],
]);

const invite: FieldRule = {
  kind: 'text',
  ops: new Set(['$eq']),
  build(_op, value) {
    const sql = INVITE_STATES.get(value as string);
    if (!sql) throw inputError('invite takes "pending", "accepted" or "rejected"');
    return sql;
  },
};

/** The viewer's own flags on a channel (`$eq` true or false). */
const flag = (sql: string): FieldRule => ({
  kind: 'boolean',
  ops: new Set(['$eq']),
  build: (_op, value) => (value ? sql : `NOT (${sql})`),
});

const VIEWER_ONLY: Array<[string, FieldRule]> = [
  ['invite', invite],
  ['hidden', flag('vm.hidden')],
  ['muted', flag('(vm.muted AND (vm.mute_expires IS NULL OR vm.mute_expires > now()))')],
  ['pinned', flag('vm.pinned_at IS NOT NULL')],
  ['archived', flag('vm.archived_at IS NOT NULL')],
  ['joined', flag('vm.user_id IS NOT NULL')],
];

/** Viewer fields without a viewer (the server) are refused by name rather than read as custom fields. */
const needsUser = (field: string): FieldRule => ({
  kind: 'json',
  ops: new Set(['$eq']),
  build: () => {
    throw inputError(`filter on ${field} needs a user`);
  },
});

const FIELDS: ReadonlyMap<string, FieldRule> = new Map([
  ...COLUMN_FIELDS,
  ...VIEWER_ONLY.map(([name]): [string, FieldRule] => [name, needsUser(name)]),
]);
const VIEWER_FIELDS: ReadonlyMap<string, FieldRule> = new Map([...COLUMN_FIELDS, ...VIEWER_ONLY]);

/** A custom field (`c.custom`): jsonb containment for equality, numbers compared as numbers. */
function customField(field: string): FieldRule | undefined {
  if (!/^[A-Za-z_][\w.-]{0,63}$/.test(field)) return undefined;
  return {
    kind: 'json',
    ops: new Set(ALL_OPS),
    build(op, operand, p) {
      const key = p(field);
      const value = `c.custom -> ${key}`;
      // jsonb containment: equal scalars, or an array holding the value.
      const has = (v: unknown) => `coalesce(${value} @> ${p(JSON.stringify(v))}::jsonb, false)`;
      const anyOf = (list: unknown[]) => (list.length ? list.map(has).join(' OR ') : 'false');
      switch (op) {
        case '$eq':
          return has(operand);
        case '$ne':
          return `NOT ${has(operand)}`;
        case '$in':
          return anyOf(operand as unknown[]);
        case '$nin':
          return `NOT (${anyOf(operand as unknown[])})`;
        case '$exists':
          return operand ? `c.custom ? ${key}` : `NOT (c.custom ? ${key})`;
        case '$autocomplete':
          return `(c.custom ->> ${key}) ILIKE ${p(`%${likeEscape(String(operand))}%`)}`;
        default: {
          const numeric = typeof operand === 'number';
          const cast = numeric ? '::numeric' : '';
          const guard = numeric ? `jsonb_typeof(${value}) = 'number' AND ` : '';
          const cmp = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op as '$gt'];
          return `${guard}(c.custom ->> ${key})${cast} ${cmp} ${p(operand)}${cast}`;
        }
      }
    },
  };
}

/** Sort fields of query channels and their SQL (the protocol's ChannelSortField lists the same names). */
export const CHANNEL_SORT: ReadonlyMap<string, string> = new Map<ChannelSortField, string>([
  ['last_message_at', 'coalesce(c.last_message_at, c.created_at)'],
  ['created_at', 'c.created_at'],
  ['updated_at', 'c.updated_at'],
  ['name', 'c.name'],
  ['cid', 'c.cid'],
  ['member_count', MEMBER_COUNT],
  ['pinned_at', 'vm.pinned_at'],
  ['archived_at', 'vm.archived_at'],
  ['has_unread', `(${unreadSql('vm')} > 0)`],
  ['unread_count', unreadSql('vm')],
]);
