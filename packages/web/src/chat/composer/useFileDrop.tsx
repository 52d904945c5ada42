import { useCallback, useRef, useState, useSyncExternalStore, type DragEvent } from 'react';
import type { ComposerHandle } from '../sdkTypes';
import { t } from '../../i18n/t';

/** Drag events an area already handled: nested areas (the composer inside the channel) handle each event once. */
const taken = new WeakSet<Event>();

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Drag and drop of files onto an area (the composer, the channel): handlers to spread on the area and an overlay to
 * render inside it, shown while files are dragged over it. Dropped files become the composer's attachments.
 * Nothing happens when uploads are not allowed (no `upload-file`, or the maximum reached).
 */
export function useFileDrop(attachments: ComposerHandle['attachments']) {
  const enabled = useCanUpload(attachments);
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  /** Whether this area takes the event: files, uploads allowed, and no inner area (the composer) took it first. */
  const take = (event: DragEvent) => {
    if (!enabled || !hasFiles(event) || taken.has(event.nativeEvent)) return false;
    taken.add(event.nativeEvent);
    return true;
  };
  const handlers = {
    onDragEnter(event: DragEvent) {
      if (!take(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver(event: DragEvent) {
      if (!take(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave(event: DragEvent) {
      if (!take(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop(event: DragEvent) {
      depth.current = 0;
      setDragging(false);
      if (!take(event)) return;
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

/** Whether files can be added now; re-renders only when that changes (not on every progress step of an upload). */
export function useCanUpload(attachments: ComposerHandle['attachments']): boolean {
  const subscribe = useCallback(
    (listener: () => void) => attachments.state.subscribe(listener),
    [attachments],
  );
  return useSyncExternalStore(subscribe, () => attachments.state.getSnapshot().canUpload);
}
