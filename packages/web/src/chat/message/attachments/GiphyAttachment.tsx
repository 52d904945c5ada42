import { ATTACHMENT_CONSTANTS, type Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import { imageUrlOf } from './format';

/** A giphy (chat-spec §3, §9): its `fixed_height_downsampled` rendition, 300 px high when the size is unknown. */
export function GiphyAttachment({ attachment }: { attachment: Attachment }) {
  const rendition = attachment.giphy?.fixed_height_downsampled;
  const src = rendition?.url || imageUrlOf(attachment);
  const height = Number(rendition?.height) || ATTACHMENT_CONSTANTS.giphyDefaultHeightPx;
  const width = Number(rendition?.width) || undefined;
  return (
    <figure className="attachment-giphy">
      <img
        src={src}
        alt={attachment.title || t('chat.attachment.giphy')}
        height={height}
        width={width}
        style={{ aspectRatio: width ? `${width} / ${height}` : undefined }}
        decoding="async"
      />
    </figure>
  );
}
