import {
  DEFAULT_CHANNEL_TYPE_SETTINGS,
  type ChannelType,
  type ChannelTypeSettings,
} from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notAllowed, notFound } from '../errors.js';
import { requireAdmin } from '../policy/channel-access.js';
import { iso } from '../presenters/time.js';
import { getChannelType, loadRules } from '../store/policy.js';
import type { ChannelTypeRow } from '../store/rows.js';

async function presentType(q: Queryable, row: ChannelTypeRow): Promise<ChannelType> {
  const rules = await loadRules(q, [row.name]);
  return {
    ...DEFAULT_CHANNEL_TYPE_SETTINGS,
    ...row.config,
    name: row.name,
    builtin: row.builtin,
    permissions: rules,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** `GET /chat/channeltypes`: every type by name. Any user may read them (clients show features by them). */
export async function listChannelTypes(ctx: ChatContext): Promise<Record<string, ChannelType>> {
  const { rows } = await ctx.db.query<ChannelTypeRow>('SELECT * FROM chat_channel_types ORDER BY name');
  const out: Record<string, ChannelType> = {};
  for (const row of rows) out[row.name] = await presentType(ctx.db, row);
  return out;
}

export async function getChannelTypeFor(ctx: ChatContext, name: string): Promise<ChannelType> {
  const row = await getChannelType(ctx.db, name);
  if (!row) throw notFound(`channel type "${name}" does not exist`);
  return presentType(ctx.db, row);
}

/** `POST /chat/channeltypes`: a new type; unspecified settings take the defaults (commands: all). */
export async function createChannelType(
  ctx: ChatContext,
  actor: Actor,
  name: string,
  settings: Partial<ChannelTypeSettings>,
): Promise<ChannelType> {
  await requireAdmin(ctx.db, actor, 'create channel types');
  const { rows } = await ctx.db.query<ChannelTypeRow>(
    `INSERT INTO chat_channel_types (name, config) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING *`,
    [name, JSON.stringify(settings)],
  );
  const row = rows[0];
  if (!row) throw inputError(`channel type "${name}" already exists`);
  return presentType(ctx.db, row);
}

/** `PUT /chat/channeltypes/{name}`: changes settings; every channel of the type follows at once. */
export async function updateChannelType(
  ctx: ChatContext,
  actor: Actor,
  name: string,
  settings: Partial<ChannelTypeSettings>,
): Promise<ChannelType> {
  await requireAdmin(ctx.db, actor, 'update channel types');
  const { rows } = await ctx.db.query<ChannelTypeRow>(
    `UPDATE chat_channel_types SET config = config || $2::jsonb, updated_at = now() WHERE name = $1 RETURNING *`,
    [name, JSON.stringify(settings)],
  );
  const row = rows[0];
  if (!row) throw notFound(`channel type "${name}" does not exist`);
  return presentType(ctx.db, row);
}

/** `DELETE /chat/channeltypes/{name}`: not built-in types, not while channels of the type exist. */
export async function deleteChannelType(ctx: ChatContext, actor: Actor, name: string): Promise<void> {
  await requireAdmin(ctx.db, actor, 'delete channel types');
  await ctx.db.tx(async (q) => {
    const row = await getChannelType(q, name);
    if (!row) throw notFound(`channel type "${name}" does not exist`);
    if (row.builtin) throw notAllowed(`built-in channel type "${name}" cannot be deleted`);
    const used = await q.query('SELECT 1 FROM chat_channels WHERE type = $1 LIMIT 1', [name]);
    if (used.rowCount > 0) throw inputError(`channel type "${name}" still has channels`);
    await q.query('DELETE FROM chat_channel_types WHERE name = $1', [name]);
  });
}
