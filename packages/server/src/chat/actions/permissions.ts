import crypto from 'node:crypto';
import type { ChatRole, PermissionInput, PermissionRule } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed, notFound } from '../errors.js';
import { requireAdmin } from '../policy/channel-access.js';
import { requireChannelType } from '../policy/channel-types.js';
import { BUILT_IN_RULES } from '../policy/rules.js';
import { iso } from '../presenters/time.js';
import { getRole, getRule, presentRule } from '../store/policy.js';
import type { PermissionRow, RoleRow } from '../store/rows.js';
import type { ChannelTypeRule } from '../server-api.js';

/** Writes the built-in rules that are missing (every node at start; concurrent starts are harmless). */
export async function seedBuiltInRules(q: Queryable): Promise<void> {
  for (const r of BUILT_IN_RULES) {
    await q.query(
      `INSERT INTO chat_permissions (id, name, action, owner, priority, resources, roles, channel_type, builtin)
       VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, true) ON CONFLICT (id) DO NOTHING`,
      [r.id, r.name, r.action, r.owner, r.priority, r.resources, r.roles],
    );
  }
}

/**
 * Writes per-type rules the server installs (the product's, at start): kept as built-in rules, so the permissions
 * API can neither change nor delete them; a changed definition replaces the stored one.
 */
export async function installTypeRules(q: Queryable, rules: readonly ChannelTypeRule[]): Promise<void> {
  for (const r of rules) {
    if (r.priority < 2 || r.priority > 999) throw inputError(`rule "${r.id}": priority must be 2 to 999`);
    await requireChannelType(q, r.channelType);
    await q.query(
      `INSERT INTO chat_permissions (id, name, action, owner, priority, resources, roles, channel_type, builtin)
       VALUES ($1, $2, $3, false, $4, $5, $6, $7, true)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, action = EXCLUDED.action, owner = false,
         priority = EXCLUDED.priority, resources = EXCLUDED.resources, roles = EXCLUDED.roles,
         channel_type = EXCLUDED.channel_type, builtin = true, updated_at = now()`,
      [r.id, r.name, r.action, r.priority, r.resources, r.roles, r.channelType],
    );
  }
}

async function checkRoles(q: Queryable, roles: string[]): Promise<void> {
  for (const role of roles) {
    if (role !== '*' && !(await getRole(q, role))) throw inputError(`role "${role}" does not exist`);
  }
}

/** `GET /chat/permissions`: every rule, highest priority first. */
export async function listPermissions(ctx: ChatContext, actor: Actor): Promise<PermissionRule[]> {
  await requireAdmin(ctx.db, actor, 'read permissions');
  const { rows } = await ctx.db.query<PermissionRow>(
    'SELECT * FROM chat_permissions ORDER BY priority DESC, id',
  );
  return rows.map(presentRule);
}

export async function getPermission(ctx: ChatContext, actor: Actor, id: string): Promise<PermissionRule> {
  await requireAdmin(ctx.db, actor, 'read permissions');
  const row = await getRule(ctx.db, id);
  if (!row) throw notFound(`permission "${id}" does not exist`);
  return presentRule(row);
}

/** `POST /chat/permissions` (create) and `PUT /chat/permissions/{id}` (replace); built-in rules are fixed. */
export async function savePermission(
  ctx: ChatContext,
  actor: Actor,
  input: PermissionInput,
  existingId?: string,
): Promise<PermissionRule> {
  await requireAdmin(ctx.db, actor, 'change permissions');
  return ctx.db.tx(async (q) => {
    await checkRoles(q, input.roles);
    if (input.channel_type) await requireChannelType(q, input.channel_type);
    if (existingId) {
      const row = await getRule(q, existingId);
      if (!row) throw notFound(`permission "${existingId}" does not exist`);
      if (row.builtin) throw notAllowed(`built-in permission "${existingId}" cannot be changed`);
    }
    const id = existingId ?? input.id ?? crypto.randomUUID();
    const { rows } = await q.query<PermissionRow>(
      `INSERT INTO chat_permissions (id, name, action, owner, priority, resources, roles, channel_type)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, action = EXCLUDED.action, owner = EXCLUDED.owner,
         priority = EXCLUDED.priority, resources = EXCLUDED.resources, roles = EXCLUDED.roles,
         channel_type = EXCLUDED.channel_type, updated_at = now()
       WHERE $9 RETURNING *`,
      [
        id,
        input.name,
        input.action,
        input.owner === true,
        input.priority,
        input.resources,
        input.roles,
        input.channel_type ?? null,
        existingId !== undefined,
      ],
    );
    const row = rows[0];
    if (!row) throw inputError(`permission "${id}" already exists`);
    return presentRule(row);
  });
}

export async function deletePermission(ctx: ChatContext, actor: Actor, id: string): Promise<void> {
  await requireAdmin(ctx.db, actor, 'change permissions');
  const row = await getRule(ctx.db, id);
  if (!row) throw notFound(`permission "${id}" does not exist`);
  if (row.builtin) throw notAllowed(`built-in permission "${id}" cannot be deleted`);
  await ctx.db.query('DELETE FROM chat_permissions WHERE id = $1', [id]);
}

function presentRole(row: RoleRow): ChatRole {
  return {
    name: row.name,
    scope: row.scope,
    custom: row.custom,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function listRoles(ctx: ChatContext, actor: Actor): Promise<ChatRole[]> {
  await requireAdmin(ctx.db, actor, 'read roles');
  const { rows } = await ctx.db.query<RoleRow>('SELECT * FROM chat_roles ORDER BY custom, scope, name');
  return rows.map(presentRole);
}

/** `POST /chat/roles`: a custom role (global by default), usable in rules and as a user or channel role. */
export async function createRole(
  ctx: ChatContext,
  actor: Actor,
  name: string,
  scope: ChatRole['scope'] = 'global',
): Promise<ChatRole> {
  await requireAdmin(ctx.db, actor, 'create roles');
  const { rows } = await ctx.db.query<RoleRow>(
    `INSERT INTO chat_roles (name, scope) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING *`,
    [name, scope],
  );
  const row = rows[0];
  if (!row) throw inputError(`role "${name}" already exists`);
  return presentRole(row);
}

/** `DELETE /chat/roles/{name}`: custom roles only, and only while no user, member or rule uses them. */
export async function deleteRole(ctx: ChatContext, actor: Actor, name: string): Promise<void> {
  await requireAdmin(ctx.db, actor, 'delete roles');
  await ctx.db.tx(async (q) => {
    const row = await getRole(q, name);
    if (!row) throw notFound(`role "${name}" does not exist`);
    if (!row.custom) throw notAllowed(`built-in role "${name}" cannot be deleted`);
    const { rows } = await q.query<{ used: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM chat_users WHERE role = $1)
           OR EXISTS (SELECT 1 FROM chat_members WHERE channel_role = $1)
           OR EXISTS (SELECT 1 FROM chat_permissions WHERE $1 = ANY(roles)) AS used`,
      [name],
    );
    if (rows[0]?.used) throw inputError(`role "${name}" is still in use`);
    await q.query('DELETE FROM chat_roles WHERE name = $1', [name]);
  });
}
