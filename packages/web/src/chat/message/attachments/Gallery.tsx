import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import { galleryTiles } from './format';
import { ImageAttachment } from './ImageAttachment';

/** CSS size of one gallery tile (two columns of 150 px: the width of a single image). */
export const GALLERY_TILE_CSS = 148;

/**
 * A message's images as a gallery (chat-spec §2, §9): formed at 2 or more images, up to 4 tiles; with more than
 * 4, 3 images and a fourth tile "+N more". Every tile opens the carousel at its image.
 */
export function Gallery({ images, onOpen }: { images: Attachment[]; onOpen: (index: number) => void }) {
  const { shown, more } = galleryTiles(images.length);
  const tiles = images.slice(0, more ? shown + 1 : shown);
  return (
    <div
      className={`attachment-gallery attachment-gallery-${Math.min(tiles.length, 4)}`}
      role="group"
      aria-label={t('chat.attachment.gallery', { count: images.length })}
    >
      {tiles.map((image, index) => {
        const isMore = more > 0 && index === shown;
        return (
          <ImageAttachment
            key={index}
            attachment={image}
            tile={GALLERY_TILE_CSS}
            onOpen={() => onOpen(index)}
            overlay={isMore ? t('chat.attachment.more', { count: more }) : undefined}
            label={
              isMore
                ? t('chat.attachment.more', { count: more })
                : t('chat.attachment.openImage', { index: index + 1, count: images.length })
            }
          />
        );
      })}
    </div>
  );
}
