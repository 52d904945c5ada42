import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';
import { Modal } from '../../../ui/Modal';
import { BackIcon, CloseIcon } from '../../../ui/icons';
import { imageUrlOf, resizeRequest } from './format';
import { useBlobUrl } from './useFiles';

/** The step a key press makes in the carousel: -1, +1, or 0 for other keys. */
export function carouselStep(key: string): -1 | 0 | 1 {
  if (key === 'ArrowLeft') return -1;
  if (key === 'ArrowRight') return 1;
  return 0;
}

interface ImageCarouselProps {
  images: Attachment[];
  startIndex: number;
  onClose: () => void;
}

/**
 * The image carousel modal (chat-spec §2): one image at a time with previous and next steppers (buttons and
 * the arrow keys), a "2 / 5" counter, closing on Escape, a click outside or the close button. The native modal
 * dialog keeps focus inside; focus returns to what opened it.
 */
export function ImageCarousel({ images, startIndex, onClose }: ImageCarouselProps) {
  const [index, setIndex] = useState(Math.min(Math.max(0, startIndex), images.length - 1));
  const titleId = useId();
  const opener = useRef<Element | null>(typeof document === 'undefined' ? null : document.activeElement);
  const image = images[index];
  const count = images.length;

  useEffect(() => {
    const previous = opener.current;
    return () => {
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);

  const go = (step: number) => setIndex((i) => Math.min(count - 1, Math.max(0, i + step)));
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = carouselStep(event.key);
    if (step === 0) return;
    event.preventDefault();
    event.stopPropagation();
    go(step);
  };

  return (
    <Modal title={t('chat.carousel.title')} onClose={onClose} className="carousel" bare={{ titleId }}>
      <div
        className="carousel-content"
        onKeyDown={onKeyDown}
        onClick={(event) => {
          // The carousel fills the screen: a click on its dark space, outside the image and the controls, is a
          // click outside (chat-spec §2).
          if (!(event.target as HTMLElement).closest('button, img')) onClose();
        }}
      >
        <header className="carousel-header">
          <h2 id={titleId} className="carousel-counter" aria-live="polite">
            <span className="visually-hidden">{t('chat.carousel.title')} </span>
            {t('chat.carousel.counter', { index: index + 1, count })}
          </h2>
          <button
            type="button"
            className="icon-button carousel-close"
            aria-label={t('ui.close')}
            onClick={onClose}
          >
            <CloseIcon />
          </button>
        </header>
        <div className="carousel-stage">
          <button
            type="button"
            className="icon-button carousel-step carousel-previous"
            aria-label={t('chat.carousel.previous')}
            disabled={index === 0}
            onClick={() => go(-1)}
          >
            <BackIcon />
          </button>
          {image ? <CarouselImage key={index} image={image} /> : null}
          <button
            type="button"
            className="icon-button carousel-step carousel-next"
            aria-label={t('chat.carousel.next')}
            disabled={index >= count - 1}
            onClick={() => go(1)}
          >
            <BackIcon />
          </button>
        </div>
        {image?.title ? <p className="carousel-caption">{image.title}</p> : null}
      </div>
    </Modal>
  );
}

function CarouselImage({ image }: { image: Attachment }) {
  // Ask for the viewport's size (twice, capped at the original): the carousel shows the image large.
  const viewport =
    typeof window === 'undefined' ? { w: 1200, h: 900 } : { w: window.innerWidth, h: window.innerHeight };
  const blob = useBlobUrl(
    imageUrlOf(image),
    resizeRequest(Math.min(viewport.w, 1600), Math.min(viewport.h, 1200), image),
  );
  const alt = image.title || image.fallback || t('chat.attachment.image');
  const [broken, setBroken] = useState(false);
  if (blob.status === 'error' || broken)
    return <p className="carousel-error">{t('chat.attachment.imageError')}</p>;
  if (!blob.src)
    return <span className="spinner" role="status" aria-label={t('chat.attachment.imageLoading')} />;
  return <img className="carousel-image" src={blob.src} alt={alt} onError={() => setBroken(true)} />;
}
