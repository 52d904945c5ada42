import { useRef, useState, type DragEvent } from 'react';
import type { ComposerHandle } from '../sdkTypes';
import { t } from '../../i18n/t';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Drag and drop of files onto an area (the composer, the channel): handlers to spread on the area and an overlay to
 * render inside it, shown while files are dragged over it. Dropped files become the composer's attachments.
 * Nothing happens when uploads are not allowed (no `upload-file`, or the maximum reached).
 */
export function useFileDrop(attachments: ComposerHandle['attachments'], enabled: boolean) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const handlers = {
    onDragEnter(event: DragEvent) {
      if (!enabled || !hasFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver(event: DragEvent) {
      if (!enabled || !hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave(event: DragEvent) {
      if (!enabled || !hasFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop(event: DragEvent) {
      depth.current = 0;
      setDragging(false);
      // An inner area (the composer inside the channel) took the drop already.
      if (!enabled || !hasFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      const files = Array.from(event.dataTransfer.files);
      if (files.length > 0) void attachments.addFiles(files);
    },
  };
  const overlay = dragging ? (
    <div className="drop-zone" data-testid="drop-zone" aria-hidden="true">
      <span>{t('chat.attachments.drop')}</span>
    </div>
  ) : null;
  return { handlers, overlay, dragging };
}
