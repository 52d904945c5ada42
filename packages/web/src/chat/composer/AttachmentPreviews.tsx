import type { LocalAttachment } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { CloseIcon } from '../../ui/icons';
import type { ComposerHandle } from '../sdkTypes';
import { useStore } from '../useStore';
import { DownloadIcon, FileIcon, RetryIcon } from './attachmentIcons';
import { saveBlob } from '../message/attachments/FileAttachment';
import { formatFileSize } from '../message/attachments/format';
import './attachments.css';

type Attachments = ComposerHandle['attachments'];

function Preview({ attachment, attachments }: { attachment: LocalAttachment; attachments: Attachments }) {
  const meta = attachment.localMetadata;
  const name = attachment.title ?? attachment.fallback ?? t('chat.attachments.list');
  const state = meta.uploadState;
  const running = state === 'pending' || state === 'uploading';
  const blockedText =
    meta.uploadPermissionCheck?.reason === 'size_limit'
      ? t('chat.attachments.blockedSize')
      : t('chat.attachments.blockedType');
  return (
    <li className="attachment-preview" data-state={state} data-type={attachment.type}>
      {meta.previewUri ? (
        <img className="attachment-thumb" src={meta.previewUri} alt="" />
      ) : (
        <span className="attachment-icon">
          <FileIcon />
        </span>
      )}
      <span className="attachment-body">
        <span className="attachment-name" title={name}>
          {name}
        </span>
        <span className="attachment-meta">
          {state === 'failed' ? (
            <span className="attachment-error">{t('chat.attachments.failed')}</span>
          ) : state === 'blocked' ? (
            <span className="attachment-error">{blockedText}</span>
          ) : attachment.file_size !== undefined ? (
            formatFileSize(attachment.file_size)
          ) : null}
        </span>
        {running ? (
          <progress
            className="attachment-progress"
            max={100}
            value={state === 'pending' ? undefined : (meta.progress ?? 0)}
            aria-label={t('chat.attachments.uploading', { name })}
          />
        ) : null}
      </span>
      <span className="attachment-actions">
        {state === 'failed' ? (
          <button
            type="button"
            className="icon-button icon-button-small"
            aria-label={t('chat.attachments.retry', { name })}
            title={t('chat.attachments.retry', { name })}
            onClick={() => void attachments.retry(meta.id)}
          >
            <RetryIcon />
          </button>
        ) : null}
        {state === 'finished' && meta.file ? (
          <button
            type="button"
            className="icon-button icon-button-small"
            aria-label={t('chat.attachments.download', { name })}
            title={t('chat.attachments.download', { name })}
            onClick={() => meta.file && saveBlob(meta.file, name)}
          >
            <DownloadIcon />
          </button>
        ) : null}
        <button
          type="button"
          className="icon-button icon-button-small"
          aria-label={t('chat.attachments.remove', { name })}
          title={t('chat.attachments.remove', { name })}
          onClick={() => void attachments.remove(meta.id)}
        >
          <CloseIcon />
        </button>
      </span>
    </li>
  );
}

/**
 * The composer's attachments (chat-spec §2, §4, §5): an image thumbnail or a file icon with name and size, a progress
 * bar while uploading, Retry when failed, the reason when blocked, Download of finished ones, Remove; under them the
 * count notice when there are more than the maximum.
 */
export function AttachmentPreviews({ attachments }: { attachments: Attachments }) {
  const state = useStore(attachments.state);
  if (state.attachments.length === 0) return null;
  return (
    <div className="attachment-previews">
      <ul className="attachment-list" aria-label={t('chat.attachments.list')}>
        {state.attachments.map((a) => (
          <Preview key={a.localMetadata.id} attachment={a} attachments={attachments} />
        ))}
      </ul>
      {state.countNotice ? (
        <p className="attachment-notice" role="status">
          {t('chat.attachments.tooMany', { count: state.attachments.length, max: state.maxAttachments })}
        </p>
      ) : null}
    </div>
  );
}
