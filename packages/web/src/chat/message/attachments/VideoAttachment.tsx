import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import { imageBox, resizeRequest } from './format';
import { IMAGE_MAX_CSS } from './ImageAttachment';
import { useBlobUrl, useFiles } from './useFiles';

/**
 * A video (chat-spec §2): the poster from `thumb_url` (a cached blob), the stream through `mediaUrl` (the token
 * rides in the query: a `<video>` cannot send headers, and range requests must reach the server).
 */
export function VideoAttachment({ attachment }: { attachment: Attachment }) {
  const files = useFiles();
  const box = imageBox(attachment, IMAGE_MAX_CSS.width, IMAGE_MAX_CSS.height);
  const poster = useBlobUrl(attachment.thumb_url, resizeRequest(box.width, box.height, attachment));
  const src = files ? files.mediaUrl(attachment.asset_url) : attachment.asset_url;
  return (
    <figure className="attachment-video" style={{ width: box.width }}>
      <video
        controls
        preload="metadata"
        src={src}
        poster={poster.src}
        width={box.width}
        height={box.height}
        aria-label={attachment.title || t('chat.attachment.video')}
        style={{ aspectRatio: `${box.width} / ${box.height}` }}
      />
      {attachment.title ? <figcaption className="attachment-caption">{attachment.title}</figcaption> : null}
    </figure>
  );
}
