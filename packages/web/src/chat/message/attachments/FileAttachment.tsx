import { useState } from 'react';
import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import { fileFamily, fileNameOf, formatFileSize } from './format';
import { FileIcon } from './FileIcon';
import { useFiles } from './useFiles';

/** Saves `blob` under `name` through a temporary object URL. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL; give the browser a moment before letting go of it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A file (chat-spec §2): an icon by type, the name, the size, and a download button. Chat files are private, so
 * the button fetches the file with the chat token and saves it under its name; other URLs are plain links.
 */
export function FileAttachment({ attachment }: { attachment: Attachment }) {
  const files = useFiles();
  const name = fileNameOf(attachment);
  const url = attachment.asset_url ?? '';
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const label = t('chat.attachment.download', { name });

  const download = async () => {
    if (!files) return;
    setBusy(true);
    setFailed(false);
    try {
      saveBlob(await files.fetchFile(url), name);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      className="attachment-card attachment-file"
      data-file-family={fileFamily(attachment.mime_type, name)}
    >
      <div className="attachment-file-row">
        <FileIcon family={fileFamily(attachment.mime_type, name)} />
        <span className="attachment-file-text">
          <span className="attachment-file-name" title={name}>
            {name}
          </span>
          <span className="attachment-file-size">{formatFileSize(attachment.file_size)}</span>
        </span>
        {files?.isChatFile(url) ? (
          <button
            type="button"
            className="icon-button attachment-download"
            aria-label={label}
            title={label}
            disabled={busy}
            onClick={() => void download()}
          >
            <DownloadIcon />
          </button>
        ) : (
          <a
            className="icon-button attachment-download"
            href={url}
            download={name}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={label}
            title={label}
          >
            <DownloadIcon />
          </a>
        )}
      </div>
      {failed ? (
        <p className="inline-error" role="alert">
          {t('chat.attachment.downloadError')}
        </p>
      ) : null}
    </div>
  );
}

function DownloadIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M12 3v12m0 0-5-5m5 5 5-5M4 19h16"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
