import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import { fileNameOf, formatFileSize } from './format';
import { FileIcon } from './FileIcon';
import { useFiles } from './useFiles';

/** An audio file (chat-spec §2): name, size and the browser's player, streamed through `mediaUrl`. */
export function AudioAttachment({ attachment }: { attachment: Attachment }) {
  const files = useFiles();
  const name = fileNameOf(attachment);
  const src = files ? files.mediaUrl(attachment.asset_url) : attachment.asset_url;
  return (
    <div className="attachment-card attachment-audio">
      <div className="attachment-file-row">
        <FileIcon family="audio" />
        <span className="attachment-file-text">
          <span className="attachment-file-name">{name}</span>
          <span className="attachment-file-size">{formatFileSize(attachment.file_size)}</span>
        </span>
      </div>
      <audio controls preload="metadata" src={src} aria-label={`${t('chat.attachment.audio')}: ${name}`} />
    </div>
  );
}
