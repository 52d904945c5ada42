import { THREAD_DEFAULTS } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { isMessageVisible } from '../policy/read-access.js';
import { presentMessage } from '../presenters/message.js';
import { loadLookups, messageColumns } from '../store/messages.js';
import type { MessageRow } from '../store/rows.js';
import { presentThreads } from '../views/threads.js';
import type { WireEvent } from './fanout.js';

/** A row of `chat_events` (migration 0018): a reference to its message, not a copy. */
export interface RecordedRow {
  id: number;
  cid: string | null;
  seq: number | null;
  user_id: string | null;
  type: string;
  message_id: string | null;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** The columns of {@link RecordedRow} from `chat_events e`. */
export const RECORDED_COLUMNS =
  'e.id, e.cid, e.seq, e.user_id, e.type, e.message_id, e.payload, e.created_at';

function visible(row: MessageRow, viewer: RecordedViewer, hidden: ReadonlySet<string>): boolean {
  const view = viewer.channels.get(row.cid);
  return isMessageVisible(row, {
    userId: viewer.userId,
    member: { history_cleared_at: view?.history_cleared_at ?? null },
    channel: { truncated_at: view?.truncated_at ?? null },
    hidden,
  });
}

/** A message that no longer exists (hard-deleted, or gone with its channel's truncation): a deleted stub. */
function goneMessage(id: string, cid: string, seq: number | null, at: Date): MessageRow {
  return {
    id,
    seq: seq ?? 0,
    cid,
    user_id: null,
    type: 'deleted',
    text: '',
    parent_id: null,
    show_in_channel: false,
    quoted_message_id: null,
    mentioned_users: [],
    attachments: [],
    custom: {},
    silent: false,
    poll_id: null,
    pinned: false,
    pinned_at: null,
    pinned_by_id: null,
    pin_expires: null,
    reply_count: 0,
    reaction_groups: {},
    created_at: at,
    updated_at: at,
    message_text_updated_at: null,
    deleted_at: at,
    deleted_type: null,
  };
}

/** A reader's view of the channels of the events presented (for the read rule's message visibility). */
export interface RecordedViewer {
  userId: string;
  channels: ReadonlyMap<string, { truncated_at: Date | null; history_cleared_at: Date | null }>;
}

/**
 * Recorded events as `viewer` gets them now (undefined: the shared view live events carry). A message event shows
 * its message as it is NOW, through the message presenter: deleted and edited messages show as such, never their
 * old content. An event about a message that is gone, or that the viewer may not see (policy/read-access
 * `isMessageVisible`: hidden for them, truncated, before the history they cleared), is left out, except
 * `message.deleted`, which shows a deleted stub without `seq` (the client drops the message).
 */
export async function presentRecorded(
  q: Queryable,
  rows: readonly RecordedRow[],
  viewer: RecordedViewer | undefined,
): Promise<WireEvent[]> {
  const viewerId = viewer?.userId;
  const ids = [...new Set(rows.flatMap((r) => (r.message_id ? [r.message_id] : [])))];
  const messages = new Map<string, MessageRow>();
  if (ids.length > 0) {
    const res = await q.query<MessageRow>(
      `SELECT ${messageColumns('m')} FROM chat_messages m WHERE m.id = ANY($1)`,
      [ids],
    );
    for (const m of res.rows) messages.set(m.id, m);
  }
  const lookups = await loadLookups(q, [...messages.values()], viewerId);
  const events: WireEvent[] = [];
  for (const r of rows) {
    const event = {
      // The row's time is the event's (a payload always carries it too; the column is the one sync orders by).
      created_at: r.created_at.toISOString(),
      ...r.payload,
      type: r.type,
      ...(r.cid !== null ? { cid: r.cid } : {}),
      ...(r.seq !== null ? { seq: r.seq } : {}),
    } as WireEvent & { thread?: unknown; message?: unknown };
    if (r.message_id) {
      const cid = r.cid ?? (typeof r.payload.cid === 'string' ? r.payload.cid : '');
      let row = messages.get(r.message_id);
      if (row && viewer && !visible(row, viewer, lookups.hiddenForViewer)) row = undefined;
      if (!row && r.type !== 'message.deleted') continue;
      if (r.type === 'thread.updated') {
        const [thread] = row ? await presentThreads(q, [row], viewerId, THREAD_DEFAULTS.get) : [];
        if (!thread) continue;
        event.thread = thread;
        events.push(event);
        continue;
      }
      const shown = presentMessage(row ?? goneMessage(r.message_id, cid, null, r.created_at), lookups);
      if (!row) delete shown.seq;
      event.message = shown;
    }
    events.push(event);
  }
  return events;
}
