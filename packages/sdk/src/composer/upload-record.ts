import type { LocalAttachment } from './attachment-manager.js';
import type { UploadErrorReason } from './attachment-checks.js';

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
