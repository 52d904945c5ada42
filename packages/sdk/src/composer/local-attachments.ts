import type { Attachment, UploadResponse } from '@caseroom/protocol';
import type { UploadErrorReason } from './attachment-checks.js';
import type { LocalAttachment } from './attachment-manager.js';

// Local attachments and what they become: sendable ones, the fields of a finished upload, the Upload record.

let ids = 0;

/** Whether a send carries it: a finished upload, or an attachment that needed none. */
export function isSendable(a: LocalAttachment): boolean {
  return !a.localMetadata.file || a.localMetadata.uploadState === 'finished';
}

/** An attachment that needs no upload (a sent message's, a custom one). */
export function asLocal(attachment: Attachment): LocalAttachment {
  return { ...attachment, localMetadata: { id: `local-attachment-${++ids}`, uploadState: 'finished' } };
}

/** The fields a finished upload gives its attachment (chat-spec §3). */
export function uploadedFields(attachment: LocalAttachment, answer: UploadResponse): Attachment {
  const file = attachment.localMetadata.file;
  const fields: Attachment = {
    ...(attachment.type === 'image' ? { image_url: answer.file } : { asset_url: answer.file }),
    ...(answer.thumb_url ? { thumb_url: answer.thumb_url } : {}),
    file_size: answer.file_size ?? file?.size ?? attachment.file_size ?? 0,
    ...(answer.mime_type || file?.type ? { mime_type: answer.mime_type ?? file?.type } : {}),
    ...(answer.original_width !== undefined ? { original_width: answer.original_width } : {}),
    ...(answer.original_height !== undefined ? { original_height: answer.original_height } : {}),
  };
  const duration = answer.duration ?? attachment.duration;
  if (duration !== undefined) fields.duration = duration;
  return fields;
}

/** chat-spec §3 Upload record: the attachment's upload as uploading, success or error. */
export interface UploadRecord {
  file?: Blob;
  type?: string;
  state: 'uploading' | 'success' | 'error';
  url?: string;
  thumb_url?: string;
  previewUri?: string;
  errorReason?: UploadErrorReason;
  errorExtraInfo?: string;
}

export function uploadRecordOf(attachment: LocalAttachment): UploadRecord {
  const meta = attachment.localMetadata;
  const state = meta.uploadState;
  const url = attachment.image_url ?? attachment.asset_url;
  return {
    ...(meta.file ? { file: meta.file } : {}),
    ...(attachment.type ? { type: attachment.type } : {}),
    state:
      state === 'finished' ? 'success' : state === 'failed' || state === 'blocked' ? 'error' : 'uploading',
    ...(url ? { url } : {}),
    ...(attachment.thumb_url ? { thumb_url: attachment.thumb_url } : {}),
    ...(meta.previewUri ? { previewUri: meta.previewUri } : {}),
    ...(meta.errorReason ? { errorReason: meta.errorReason } : {}),
    ...(meta.errorExtraInfo ? { errorExtraInfo: meta.errorExtraInfo } : {}),
  };
}
