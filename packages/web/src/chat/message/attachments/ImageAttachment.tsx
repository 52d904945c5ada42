import { useState } from 'react';
import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import { imageBox, imageUrlOf, resizeRequest } from './format';
import { useBlobUrl } from './useFiles';

/** The CSS box a single image fits in (the bubble narrows it further on a phone through `max-width: 100%`). */
export const IMAGE_MAX_CSS = { width: 300, height: 300 };

interface ImageAttachmentProps {
  attachment: Attachment;
  /** Opens the carousel at this image; without it the image is not a button. */
  onOpen?: (() => void) | undefined;
  /** A gallery tile: a square of this CSS size, cropped. */
  tile?: number | undefined;
  /** Extra content over the image (the "+N more" of the last gallery tile). */
  overlay?: string | undefined;
  /** The accessible name of the button when `onOpen` is set. */
  label?: string | undefined;
}

/**
 * One image (chat-spec §2, §9): fetched as a blob through the session cache (product-spec §7) at twice its CSS
 * size, in a placeholder of the original aspect ratio so that nothing jumps when it arrives, with loading and
 * error states; alt text from the title.
 */
export function ImageAttachment({ attachment, onOpen, tile, overlay, label }: ImageAttachmentProps) {
  const box = tile
    ? { width: tile, height: tile, known: true }
    : imageBox(attachment, IMAGE_MAX_CSS.width, IMAGE_MAX_CSS.height);
  const request = resizeRequest(box.width, box.height, attachment);
  const blob = useBlobUrl(imageUrlOf(attachment), request);
  const [shown, setShown] = useState<string | undefined>(undefined);
  const [broken, setBroken] = useState<string | undefined>(undefined);
  const alt = attachment.title || attachment.fallback || t('chat.attachment.image');
  const failed = blob.status === 'error' || (blob.src !== undefined && broken === blob.src);
  const loaded = blob.src !== undefined && shown === blob.src && !failed;
  const state = failed ? 'error' : loaded ? 'loaded' : 'loading';

  const picture = (
    <span
      className={`attachment-image attachment-image-${state}${tile ? ' attachment-image-tile' : ''}`}
      // The original's aspect ratio holds the space before the image arrives (no layout jump).
      style={{ width: box.width, aspectRatio: `${box.width} / ${box.height}` }}
      data-state={state}
    >
      {blob.src && !failed ? (
        <img
          src={blob.src}
          alt={alt}
          width={box.width}
          height={box.height}
          decoding="async"
          onLoad={() => setShown(blob.src)}
          onError={() => setBroken(blob.src)}
        />
      ) : null}
      {state === 'loading' ? (
        <span className="visually-hidden">{t('chat.attachment.imageLoading')}</span>
      ) : null}
      {failed ? (
        <span className="attachment-image-error" role="img" aria-label={alt}>
          {t('chat.attachment.imageError')}
        </span>
      ) : null}
      {overlay ? (
        <span className="attachment-more" aria-hidden="true">
          {overlay}
        </span>
      ) : null}
    </span>
  );
  if (!onOpen) return picture;
  return (
    <button type="button" className="attachment-image-button" onClick={onOpen} aria-label={label ?? alt}>
      {picture}
    </button>
  );
}
