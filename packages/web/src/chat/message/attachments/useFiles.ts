import { useEffect, useState } from 'react';
import type { BlobSize, FileCache } from '@caseroom/sdk';
import { useChat } from '../../ChatContext';

/** The connected client's file cache (undefined before the chat connected). */
export function useFiles(): FileCache | undefined {
  const chat = useChat();
  return chat.status === 'ready' ? chat.client.files : undefined;
}

export interface BlobState {
  /** What an `<img src>` can show: an object URL, or the URL itself when it is not a chat file. */
  src: string | undefined;
  status: 'loading' | 'loaded' | 'error';
  retry: () => void;
}

/**
 * The displayable URL of `url` at `size` (product-spec §7): chat files through the session's blob cache (one
 * download per URL and size), other URLs as they are. A finished download shows at once on a remount.
 */
export function useBlobUrl(url: string | undefined, size: BlobSize = {}): BlobState {
  const files = useFiles();
  const { w, h } = size;
  const immediate = url === undefined ? undefined : files ? files.cached(url, { w, h }) : url;
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; src?: string; failed?: boolean }>({ key: '' });
  const key = `${url ?? ''}|${w ?? ''}|${h ?? ''}|${attempt}`;

  useEffect(() => {
    if (!url || !files || immediate !== undefined) return;
    let live = true;
    files.fetchBlob(url, { w, h }).then(
      (src) => {
        if (live) setResult({ key, src });
      },
      () => {
        if (live) setResult({ key, failed: true });
      },
    );
    return () => {
      live = false;
    };
  }, [files, url, w, h, immediate, key]);

  const retry = () => setAttempt((n) => n + 1);
  if (!url) return { src: undefined, status: 'error', retry };
  if (immediate !== undefined) return { src: immediate, status: 'loaded', retry };
  if (result.key !== key) return { src: undefined, status: 'loading', retry };
  return result.failed
    ? { src: undefined, status: 'error', retry }
    : { src: result.src, status: 'loaded', retry };
}
