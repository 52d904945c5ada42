import type { Command } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError, notFound } from '../errors.js';
import { requireAdmin } from '../policy/channel-access.js';
import { iso } from '../presenters/time.js';

/**
 * Slash commands (`/chat/commands`). None are built in: a command the server cannot carry out (giphy needs the
 * network, mute/ban have their own endpoints) would only be a promise; a registered command is offered to clients
 * through `config.commands` of every channel type that lists it (or `all`), and a client decides what it does.
 */
interface CommandRow {
  name: string;
  description: string;
  args: string;
  set: string;
  created_at: Date;
  updated_at: Date;
}

export type CommandInput = { description?: string; args?: string; set?: string };

const present = (row: CommandRow): Command => ({
  name: row.name,
  description: row.description,
  args: row.args,
  set: row.set,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** `GET /chat/commands`: every command by name. Any user may list them (the composer offers them). */
export async function listCommands(ctx: ChatContext): Promise<Command[]> {
  const { rows } = await ctx.db.query<CommandRow>('SELECT * FROM chat_commands ORDER BY name');
  return rows.map(present);
}

export async function getCommand(ctx: ChatContext, name: string): Promise<Command> {
  const { rows } = await ctx.db.query<CommandRow>('SELECT * FROM chat_commands WHERE name = $1', [name]);
  const row = rows[0];
  if (!row) throw notFound(`command "${name}" does not exist`);
  return present(row);
}

/** `POST /chat/commands` (server or admin). */
export async function createCommand(
  ctx: ChatContext,
  actor: Actor,
  name: string,
  input: CommandInput,
): Promise<Command> {
  await requireAdmin(ctx.db, actor, 'create commands');
  const { rows } = await ctx.db.query<CommandRow>(
    `INSERT INTO chat_commands (name, description, args, "set") VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO NOTHING RETURNING *`,
    [name, input.description ?? '', input.args ?? '', input.set ?? ''],
  );
  const row = rows[0];
  if (!row) throw inputError(`command "${name}" already exists`);
  return present(row);
}

/** `PUT /chat/commands/{name}` (server or admin): changes the given fields. */
export async function updateCommand(
  ctx: ChatContext,
  actor: Actor,
  name: string,
  input: CommandInput,
): Promise<Command> {
  await requireAdmin(ctx.db, actor, 'update commands');
  const { rows } = await ctx.db.query<CommandRow>(
    `UPDATE chat_commands SET description = coalesce($2, description), args = coalesce($3, args),
            "set" = coalesce($4, "set"), updated_at = now()
      WHERE name = $1 RETURNING *`,
    [name, input.description ?? null, input.args ?? null, input.set ?? null],
  );
  const row = rows[0];
  if (!row) throw notFound(`command "${name}" does not exist`);
  return present(row);
}

/** `DELETE /chat/commands/{name}` (server or admin); channel types naming it simply stop listing it. */
export async function deleteCommand(ctx: ChatContext, actor: Actor, name: string): Promise<void> {
  await requireAdmin(ctx.db, actor, 'delete commands');
  const { rowCount } = await ctx.db.query('DELETE FROM chat_commands WHERE name = $1', [name]);
  if (rowCount === 0) throw notFound(`command "${name}" does not exist`);
}
