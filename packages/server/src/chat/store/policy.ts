import type { PermissionRule } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { iso } from '../presenters/time.js';
import type { ChannelTypeRow, PermissionRow, RoleRow } from './rows.js';

export function presentRule(row: PermissionRow): PermissionRule {
  return { ...row, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
}

/** The permission rules in force in channels of these types (rules for every type included). */
export async function loadRules(q: Queryable, types: Iterable<string>): Promise<PermissionRule[]> {
  const { rows } = await q.query<PermissionRow>(
    `SELECT * FROM chat_permissions WHERE channel_type IS NULL OR channel_type = ANY($1)
      ORDER BY priority DESC, id`,
    [[...new Set(types)]],
  );
  return rows.map(presentRule);
}

export async function getRule(q: Queryable, id: string): Promise<PermissionRow | undefined> {
  const { rows } = await q.query<PermissionRow>('SELECT * FROM chat_permissions WHERE id = $1', [id]);
  return rows[0];
}

export async function getChannelType(q: Queryable, name: string): Promise<ChannelTypeRow | undefined> {
  const { rows } = await q.query<ChannelTypeRow>('SELECT * FROM chat_channel_types WHERE name = $1', [name]);
  return rows[0];
}

export async function getRole(q: Queryable, name: string): Promise<RoleRow | undefined> {
  const { rows } = await q.query<RoleRow>('SELECT * FROM chat_roles WHERE name = $1', [name]);
  return rows[0];
}
