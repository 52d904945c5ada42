import { inputError } from '../errors.js';
import { unreadSql } from './channels.js';

/**
 * Translates query-channels `filter_conditions` (chat-spec §7) into SQL over `chat_channels c`, with `vm` the
 * viewer's own membership row (when there is a viewer). Values always go in as parameters.
 *
 * Fields: columns (cid, id, type, team, name, frozen, disabled, cooldown, created_by_id, created_at, updated_at,
 * last_message_at, member_count), `members` (ids), the viewer's `hidden`, `pinned`, `archived`, `muted`,
 * `joined`, and any other name as a custom field (an array custom field matches when it contains the value).
 * Operators: $eq $ne $in $nin $gt $gte $lt $lte $exists $autocomplete $and $or $nor.
 */
export class ChannelFilter {
  readonly params: unknown[] = [];

  constructor(private readonly hasViewer: boolean) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** SQL for a whole filter object (its keys are ANDed). */
  toSql(filter: Record<string, unknown>): string {
    const parts = Object.entries(filter).map(([key, value]) => this.entry(key, value));
    return parts.length ? parts.map((p) => `(${p})`).join(' AND ') : 'true';
  }

  private entry(key: string, value: unknown): string {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(value) || value.length === 0) throw inputError(`${key} needs a non-empty array`);
      const parts = value.map((v) => `(${this.toSql(asObject(v, key))})`);
      if (key === '$and') return parts.join(' AND ');
      if (key === '$or') return parts.join(' OR ');
      return `NOT (${parts.join(' OR ')})`;
    }
    if (key.startsWith('$')) throw inputError(`unknown filter operator ${key}`);
    const ops = isOperatorObject(value) ? value : { $eq: value };
    return Object.entries(ops)
      .map(([op, operand]) => `(${this.condition(key, op, operand)})`)
      .join(' AND ');
  }

  private condition(field: string, op: string, operand: unknown): string {
    if (field === 'members') return this.members(op, operand);
    if (field === 'invite') return this.invite(op, operand);
    if (MEMBER_FLAGS[field]) return this.memberFlag(field, op, operand);
    const column = COLUMNS[field];
    if (column) return this.column(column, field, op, operand);
    return this.custom(field, op, operand);
  }

  private members(op: string, operand: unknown): string {
    const ids = stringArray(operand, 'members');
    const any = `EXISTS (SELECT 1 FROM chat_members fm WHERE fm.cid = c.cid AND fm.user_id = ANY(${this.param(ids)}))`;
    if (op === '$in') return any;
    if (op === '$nin') return `NOT ${any}`;
    if (op === '$eq') {
      // Exactly this set of members.
      const set = this.param([...new Set(ids)]);
      return `(SELECT array_agg(fm.user_id ORDER BY fm.user_id) FROM chat_members fm WHERE fm.cid = c.cid)
              = (SELECT array_agg(x ORDER BY x) FROM unnest(${set}::text[]) x)`;
    }
    throw inputError(`operator ${op} is not supported on members`);
  }

  /** `invite: 'pending' | 'accepted' | 'rejected'`: the viewer's own invites. */
  private invite(op: string, operand: unknown): string {
    if (!this.hasViewer) throw inputError('filter on invite needs a user');
    const states: Record<string, string> = {
      pending: 'vm.invited AND vm.invite_accepted_at IS NULL AND vm.invite_rejected_at IS NULL',
      accepted: 'vm.invited AND vm.invite_accepted_at IS NOT NULL',
      rejected: 'vm.invited AND vm.invite_rejected_at IS NOT NULL',
    };
    const sql = typeof operand === 'string' ? states[operand] : undefined;
    if (op !== '$eq' || !sql) throw inputError('invite takes "pending", "accepted" or "rejected"');
    return sql;
  }

  private memberFlag(field: string, op: string, operand: unknown): string {
    if (!this.hasViewer) throw inputError(`filter on ${field} needs a user`);
    if (op !== '$eq' || typeof operand !== 'boolean') throw inputError(`${field} takes true or false`);
    const sql = MEMBER_FLAGS[field] ?? 'false';
    return operand ? sql : `NOT (${sql})`;
  }

  private column(column: string, field: string, op: string, operand: unknown): string {
    switch (op) {
      case '$eq':
        return `${column} = ${this.param(scalar(operand, field))}`;
      case '$ne':
        return `${column} IS DISTINCT FROM ${this.param(scalar(operand, field))}`;
      case '$in':
        return `${column} = ANY(${this.param(scalarArray(operand, field))})`;
      case '$nin':
        return `NOT (${column} = ANY(${this.param(scalarArray(operand, field))}))`;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return `${column} ${COMPARE[op]} ${this.param(scalar(operand, field))}`;
      case '$exists':
        return operand ? `${column} IS NOT NULL` : `${column} IS NULL`;
      case '$autocomplete':
        return `${column}::text ILIKE ${this.param(`%${likeEscape(String(operand))}%`)}`;
      default:
        throw inputError(`unknown filter operator ${op} on ${field}`);
    }
  }

  private custom(field: string, op: string, operand: unknown): string {
    if (!/^[A-Za-z_][\w.-]{0,63}$/.test(field)) throw inputError(`invalid filter field "${field}"`);
    const key = this.param(field);
    const value = `c.custom -> ${key}`;
    // jsonb containment: equal scalars, or an array holding the value.
    const has = (v: unknown) => `coalesce(${value} @> ${this.param(JSON.stringify(v))}::jsonb, false)`;
    switch (op) {
      case '$eq':
        return has(operand);
      case '$ne':
        return `NOT ${has(operand)}`;
      case '$in':
        return anyOf(asArray(operand, field).map(has));
      case '$nin':
        return `NOT (${anyOf(asArray(operand, field).map(has))})`;
      case '$exists':
        return operand ? `c.custom ? ${key}` : `NOT (c.custom ? ${key})`;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const cast = typeof operand === 'number' ? '::numeric' : '';
        const text = `(c.custom ->> ${key})`;
        const guard = typeof operand === 'number' ? `jsonb_typeof(${value}) = 'number' AND ` : '';
        return `${guard}${text}${cast} ${COMPARE[op]} ${this.param(scalar(operand, field))}${cast}`;
      }
      case '$autocomplete':
        return `(c.custom ->> ${key}) ILIKE ${this.param(`%${likeEscape(String(operand))}%`)}`;
      default:
        throw inputError(`unknown filter operator ${op} on ${field}`);
    }
  }
}

const COLUMNS: Record<string, string> = {
  cid: 'c.cid',
  id: 'c.id',
  type: 'c.type',
  team: 'c.team',
  name: 'c.name',
  frozen: 'c.frozen',
  disabled: 'c.disabled',
  cooldown: 'c.cooldown',
  created_by_id: 'c.created_by_id',
  created_at: 'c.created_at',
  updated_at: 'c.updated_at',
  last_message_at: 'c.last_message_at',
  member_count: '(SELECT count(*) FROM chat_members mc WHERE mc.cid = c.cid)',
};

const MEMBER_FLAGS: Record<string, string> = {
  hidden: 'vm.hidden',
  muted: '(vm.muted AND (vm.mute_expires IS NULL OR vm.mute_expires > now()))',
  pinned: 'vm.pinned_at IS NOT NULL',
  archived: 'vm.archived_at IS NOT NULL',
  joined: 'vm.user_id IS NOT NULL',
};

const COMPARE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => k.startsWith('$'))
  );
}

function asObject(v: unknown, key: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw inputError(`${key} takes filter objects`);
  return v as Record<string, unknown>;
}

function asArray(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) throw inputError(`$in/$nin on ${field} needs an array`);
  return v;
}

function scalar(v: unknown, field: string): string | number | boolean {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  throw inputError(`filter value for ${field} must be a string, number or boolean`);
}

function scalarArray(v: unknown, field: string): Array<string | number | boolean> {
  return asArray(v, field).map((x) => scalar(x, field));
}

function stringArray(v: unknown, field: string): string[] {
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((x) => typeof x === 'string')) throw inputError(`${field} takes user ids`);
  return list as string[];
}

function anyOf(parts: string[]): string {
  return parts.length ? parts.join(' OR ') : 'false';
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/** Sort fields of query channels and their SQL. */
export const CHANNEL_SORT: Record<string, string> = {
  last_message_at: 'coalesce(c.last_message_at, c.created_at)',
  created_at: 'c.created_at',
  updated_at: 'c.updated_at',
  name: 'c.name',
  cid: 'c.cid',
  member_count: '(SELECT count(*) FROM chat_members mc WHERE mc.cid = c.cid)',
  pinned_at: 'vm.pinned_at',
  archived_at: 'vm.archived_at',
  has_unread: `(${unreadSql('vm')} > 0)`,
  unread_count: unreadSql('vm'),
};
