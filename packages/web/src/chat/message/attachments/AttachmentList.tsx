import { useMemo, useState } from 'react';
import './attachments.css';
import type { Attachment } from '@caseroom/protocol';
import { LinkCard } from '../LinkCard';
import { AttachmentActions } from './AttachmentActions';
import { AudioAttachment } from './AudioAttachment';
import { FileAttachment } from './FileAttachment';
import { attachmentItems, type AttachmentItem } from './format';
import { Gallery } from './Gallery';
import { GiphyAttachment } from './GiphyAttachment';
import { ImageAttachment } from './ImageAttachment';
import { ImageCarousel } from './ImageCarousel';
import { VideoAttachment } from './VideoAttachment';
import { VoiceRecordingPlayer } from './VoiceRecordingPlayer';

/**
 * A message's attachments (chat-spec §2): images (a gallery from 2 on), video, audio, files, voice recordings,
 * giphies and action buttons; every image opens the carousel over all of the message's images.
 */
export function AttachmentList({ attachments }: { attachments: readonly Attachment[] }) {
  const { items, images } = useMemo(() => attachmentItems(attachments), [attachments]);
  const [carousel, setCarousel] = useState<number | undefined>(undefined);
  if (!items.length) return null;
  return (
    <div className="attachments">
      {items.map((item) => (
        <AttachmentView key={item.key} item={item} onOpenImage={setCarousel} />
      ))}
      {carousel !== undefined && images.length ? (
        <ImageCarousel images={images} startIndex={carousel} onClose={() => setCarousel(undefined)} />
      ) : null}
    </div>
  );
}

function AttachmentView({
  item,
  onOpenImage,
}: {
  item: AttachmentItem;
  onOpenImage: (index: number) => void;
}) {
  switch (item.kind) {
    case 'gallery':
      return <Gallery images={item.images} onOpen={onOpenImage} />;
    case 'image':
      return <ImageAttachment attachment={item.attachment} onOpen={() => onOpenImage(item.imageIndex)} />;
    case 'giphy':
      return <GiphyAttachment attachment={item.attachment} />;
    case 'video':
      return <VideoAttachment attachment={item.attachment} />;
    case 'audio':
      return <AudioAttachment attachment={item.attachment} />;
    case 'voiceRecording':
      return <VoiceRecordingPlayer attachment={item.attachment} />;
    case 'file':
      return <FileAttachment attachment={item.attachment} />;
    case 'actions':
      return <AttachmentActions attachment={item.attachment} />;
    case 'og':
      return <LinkCard attachment={item.attachment} />;
  }
}
