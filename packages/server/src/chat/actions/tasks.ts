import crypto from 'node:crypto';
import type { Task } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { notFound } from '../errors.js';
import { requireAdmin } from '../policy/channel-access.js';
import { iso } from '../presenters/time.js';

interface TaskRow {
  id: string;
  type: string;
  status: Task['status'];
  result: Record<string, unknown>;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const creator = (actor: Actor) => (actor.kind === 'user' ? actor.userId : null);

/**
 * Runs a batch operation as a task: the work is done before the request answers (batches are at most 100 items,
 * so a client never waits long), and the task keeps its per-item result for `GET /chat/tasks/{id}`. A failure of
 * one item is recorded in the result; a failure of the whole batch marks the task failed.
 */
export async function runTask(
  ctx: ChatContext,
  actor: Actor,
  type: string,
  work: () => Promise<Record<string, unknown>>,
): Promise<string> {
  const id = crypto.randomUUID();
  await ctx.db.query(`INSERT INTO chat_tasks (id, type, status, created_by) VALUES ($1, $2, 'pending', $3)`, [
    id,
    type,
    creator(actor),
  ]);
  let status: Task['status'] = 'completed';
  let result: Record<string, unknown>;
  try {
    result = await work();
  } catch (err) {
    status = 'failed';
    result = { error: err instanceof Error ? err.message : String(err) };
  }
  await ctx.db.query(`UPDATE chat_tasks SET status = $2, result = $3, updated_at = now() WHERE id = $1`, [
    id,
    status,
    JSON.stringify(result),
  ]);
  return id;
}

/** `GET /chat/tasks/{id}`: the server, admins, and the user who started the task. */
export async function getTask(ctx: ChatContext, actor: Actor, id: string): Promise<Task> {
  const { rows } = await ctx.db.query<TaskRow>('SELECT * FROM chat_tasks WHERE id = $1', [id]);
  const row = rows[0];
  if (!row) throw notFound(`task "${id}" does not exist`);
  if (row.created_by === null || row.created_by !== creator(actor)) {
    await requireAdmin(ctx.db, actor, 'read tasks of others').catch(() => {
      throw notFound(`task "${id}" does not exist`);
    });
  }
  return {
    task_id: row.id,
    type: row.type,
    status: row.status,
    result: row.result,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Tasks are kept a week. */
export async function pruneTasks(ctx: ChatContext): Promise<void> {
  await ctx.db.query(`DELETE FROM chat_tasks WHERE created_at < now() - interval '7 days'`);
}
