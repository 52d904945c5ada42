import type { Message, MessagePagination } from '@caseroom/protocol';
import { CHAT_LIMITS } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor } from '../context.js';
import { notFound } from '../errors.js';
import { channelForActor, type ChannelAccess } from '../policy/channel-access.js';
import { isMessageInView, viewCutoff as ruleCutoff } from '../policy/read-access.js';
import { presentMessage } from '../presenters/message.js';
import { getMessage, listMessages, loadLookups } from '../store/messages.js';
import type { ChannelRow, MessageRow } from '../store/rows.js';

/** Presents rows for one viewer (undefined = the shared view that events carry). */
export async function presentRows(
  q: Queryable,
  rows: MessageRow[],
  viewerId: string | undefined,
): Promise<Message[]> {
  const lookups = await loadLookups(q, rows, viewerId);
  return rows.map((r) => presentMessage(r, lookups));
}

export async function presentRow(q: Queryable, row: MessageRow, viewerId?: string): Promise<Message> {
  const [message] = await presentRows(q, [row], viewerId);
  if (!message) throw new Error('message could not be presented');
  return message;
}

/** A message and its channel, for an actor who must be able to read the channel (404 / 403 otherwise). */
export async function messageForActor(
  q: Queryable,
  actor: Actor,
  id: string,
): Promise<{ row: MessageRow; access: ChannelAccess }> {
  const row = await getMessage(q, id);
  if (!row) throw notFound(`Message "${id}" does not exist`);
  const access = await channelForActor(q, actor, row.cid);
  return { row, access };
}

/** Where the actor's view of a channel starts: after its truncation and after the history they cleared. */
export function viewCutoff(access: ChannelAccess): Date | null {
  return ruleCutoff({ channel: access.channel, member: access.viewer?.member });
}

/** A message the actor may read: 404 also when it lies before their view's cut-off (truncated or cleared). */
export async function visibleMessageForActor(
  q: Queryable,
  actor: Actor,
  id: string,
): Promise<{ row: MessageRow; access: ChannelAccess }> {
  const found = await messageForActor(q, actor, id);
  const { channel, viewer } = found.access;
  if (!isMessageInView(found.row, { channel, member: viewer?.member }))
    throw notFound(`Message "${id}" does not exist`);
  return found;
}

/** The id fields every channel event carries. */
export function channelIds(channel: ChannelRow): { cid: string; channel_id: string; channel_type: string } {
  return { cid: channel.cid, channel_id: channel.id, channel_type: channel.type };
}

/** `GET /chat/messages/{id}/replies`: a page of a thread, oldest first (or newest first with sort desc). */
export async function listReplies(
  q: Queryable,
  actor: Actor,
  parentId: string,
  page: MessagePagination,
  descending: boolean,
): Promise<Message[]> {
  // The parent may lie before the viewer's cut-off: its replies after the cut-off are still theirs to read (the
  // parent itself is not presented here).
  const { access } = await messageForActor(q, actor, parentId);
  const scope = { parentId, truncatedAt: viewCutoff(access) };
  const rows = await listMessages(q, scope, page, CHAT_LIMITS.threadReplyPageSize);
  if (descending) rows.reverse();
  return presentRows(q, rows, actor.kind === 'user' ? actor.userId : undefined);
}
