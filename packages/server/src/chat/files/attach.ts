import { Attachment, CHAT_LIMITS, chatFileIdOf } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import type { Actor } from '../context.js';
import { inputError } from '../errors.js';

/** The attachment fields that may name a stored chat file (`/chat/files/{id}/...`). */
const FILE_FIELDS = ['asset_url', 'image_url', 'thumb_url'] as const;

/**
 * Checks the attachments of a message on their own: at most {@link CHAT_LIMITS.maxAttachments}, each an object the
 * protocol's `Attachment` schema accepts (chat-spec §3 fields with their types; `custom` and unknown types ride as
 * custom data, whose size the message's custom-data limit bounds). Code 4 naming the field otherwise.
 */
export function checkAttachments(attachments: unknown, where = 'attachments'): void {
  if (attachments === undefined) return;
  if (!Array.isArray(attachments)) throw inputError(`${where} must be an array`);
  if (attachments.length > CHAT_LIMITS.maxAttachments) {
    throw inputError(`${where}: at most ${CHAT_LIMITS.maxAttachments} attachments per message`);
  }
  attachments.forEach((item: unknown, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw inputError(`${where}[${i}]: an attachment is an object`);
    }
    const parsed = Attachment.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? `.${issue.path.map(String).join('.')}` : '';
      throw inputError(`${where}[${i}]${field}: ${issue?.message ?? 'invalid'}`);
    }
  });
}

/** Every stored file an attachment list names: upload id -> where it was named first. */
export function fileRefsOf(attachments: unknown): Map<string, string> {
  const refs = new Map<string, string>();
  if (!Array.isArray(attachments)) return refs;
  attachments.forEach((item: unknown, i) => {
    if (item === null || typeof item !== 'object') return;
    const a = item as Record<string, unknown>;
    for (const field of FILE_FIELDS) {
      const id = typeof a[field] === 'string' ? chatFileIdOf(a[field]) : undefined;
      if (id && !refs.has(id)) refs.set(id, `attachments[${i}].${field}`);
    }
  });
  return refs;
}

interface AttachableRow {
  id: string;
  owner_id: string;
  cid: string | null;
  message_id: string | null;
}

/**
 * Attaches the stored files message `messageId` of channel `cid` names (in the message's transaction): each must
 * exist, be the actor's (the server may attach anyone's), and be unattached or on this message already, and be an
 * `/uploads` file or one uploaded to this channel. Then it belongs to the message: readable by whoever may read the
 * message (policy/read-access), gone with it. On an edit (`edit`), files the message named before and names no more are hidden. Any
 * refusal is code 4 naming the attachment, and the transaction writes nothing. Someone else's file reads as
 * unknown (its existence is not told).
 */
export async function attachUploads(
  q: Queryable,
  actor: Actor,
  cid: string,
  messageId: string,
  attachments: unknown,
  edit = false,
): Promise<void> {
  const refs = fileRefsOf(attachments);
  const ids = [...refs.keys()];
  if (edit) {
    // An edit replaces the list: files it no longer names are served no more (kept until the message goes).
    await q.query(
      `UPDATE chat_uploads SET state = 'hidden' WHERE message_id = $1 AND NOT (id = ANY($2::text[]))`,
      [messageId, ids],
    );
  }
  if (ids.length === 0) return;
  const { rows } = await q.query<AttachableRow>(
    'SELECT id, owner_id, cid, message_id FROM chat_uploads WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
    [ids],
  );
  const found = new Map(rows.map((r) => [r.id, r]));
  for (const [id, where] of refs) {
    const row = found.get(id);
    if (row?.message_id === messageId && row.cid === cid) continue;
    if (!row || (actor.kind === 'user' && row.owner_id !== actor.userId)) {
      throw inputError(`${where}: unknown file`);
    }
    if (row.message_id !== null) throw inputError(`${where}: the file is attached to another message`);
    if (row.cid !== null && row.cid !== cid)
      throw inputError(`${where}: the file was uploaded to another channel`);
  }
  await q.query(
    `UPDATE chat_uploads SET message_id = $2, cid = $3, state = 'active', attached_at = coalesce(attached_at, now())
      WHERE id = ANY($1::text[])`,
    [ids, messageId, cid],
  );
}
