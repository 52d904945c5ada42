import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import './attachments.css';
import { attachmentKind, fileFamily, fileNameOf, imageUrlOf, resizeRequest } from './format';
import { FileIcon } from './FileIcon';
import { useBlobUrl } from './useFiles';

/** CSS size of the thumbnail in a quoted message. */
const QUOTE_THUMB_CSS = 40;

/**
 * The first attachment of a quoted message (chat-spec §2, §9: only the first): a small thumbnail for images,
 * giphies and videos with a poster, else the file's icon and name.
 */
export function QuotedAttachment({ attachments }: { attachments: readonly Attachment[] | undefined }) {
  const first = attachments?.find((a) => attachmentKind(a) !== 'none' || a.type === 'gallery');
  if (!first) return null;
  const kind = attachmentKind(first);
  const thumbUrl =
    kind === 'image' || kind === 'giphy' || kind === 'og'
      ? imageUrlOf(first) || first.giphy?.fixed_height_downsampled?.url
      : kind === 'video'
        ? first.thumb_url
        : undefined;
  const name =
    kind === 'image' || kind === 'giphy'
      ? first.title || t(kind === 'giphy' ? 'chat.attachment.giphy' : 'chat.attachment.image')
      : kind === 'voiceRecording'
        ? t('chat.attachment.voice')
        : kind === 'og'
          ? first.title || first.og_scrape_url || first.title_link || ''
          : fileNameOf(first);
  return (
    <span className="quoted-attachment" data-attachment-kind={kind}>
      {thumbUrl ? (
        <QuoteThumb url={thumbUrl} attachment={first} />
      ) : (
        <FileIcon family={iconFamily(first, kind)} />
      )}
      <span className="quoted-attachment-name">{name}</span>
    </span>
  );
}

function iconFamily(attachment: Attachment, kind: ReturnType<typeof attachmentKind>) {
  if (kind === 'voiceRecording' || kind === 'audio') return 'audio';
  if (kind === 'video') return 'video';
  return fileFamily(attachment.mime_type, fileNameOf(attachment));
}

function QuoteThumb({ url, attachment }: { url: string; attachment: Attachment }) {
  const blob = useBlobUrl(url, resizeRequest(QUOTE_THUMB_CSS, QUOTE_THUMB_CSS, attachment));
  return (
    <span className="quoted-thumb" aria-hidden="true">
      {blob.src ? <img src={blob.src} alt="" width={QUOTE_THUMB_CSS} height={QUOTE_THUMB_CSS} /> : null}
    </span>
  );
}
