import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../api/http';
import { t } from '../i18n/t';
import { dismissToast, showToast } from '../ui/toast';

/**
 * Feedback for every change on the product pages: while a call runs its controls are disabled, a success says
 * so (a short status toast), a failure shows the server's own words on screen (inline where the change was made,
 * and as a toast when there is no form to show it in). Nothing fails silently.
 */

/** The text to show for a failed call: the server's toast, else its message; a lost connection says so. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.isNetworkError) return t('domain.edit.offline');
    return err.toast ?? err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

let lastSaved: number | null = null;

/**
 * Announces a finished change ("Saved", "Team added"). One at a time: a new confirmation replaces the previous
 * one, so quick edits do not stack a column of toasts over the page.
 */
export function toastSaved(text: string = t('domain.edit.saved')): void {
  if (lastSaved !== null) dismissToast(lastSaved);
  lastSaved = showToast(text, 'info', 3000);
}

export interface Saving {
  busy: boolean;
  /** The last failure's message, until the next run or {@link Saving.clear}. */
  error: string | null;
  /**
   * Runs `action`; answers true when it succeeded. On success toasts `success` (when given); on failure keeps
   * the message in `error` and, with `toastError`, also toasts it (for buttons with no form around them).
   */
  run: (
    action: () => Promise<unknown>,
    opts?: { success?: string; toastError?: boolean },
  ) => Promise<boolean>;
  clear: () => void;
}

/** Busy and error state of one control's changes (see {@link Saving}). */
export function useSaving(): Saving {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A second click while the first call runs is ignored (the button is disabled, but Enter may repeat).
  const running = useRef(false);
  const run = useCallback<Saving['run']>(async (action, opts = {}) => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await action();
      if (opts.success) toastSaved(opts.success);
      return true;
    } catch (err) {
      const message = errorMessage(err);
      setError(message);
      if (opts.toastError) showToast(message, 'error');
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { busy, error, run, clear };
}
