import { useSyncExternalStore } from 'react';
import { t } from '../i18n/t';
import './toast.css';

/** One toast: a short message for the user (errors carry the server's `toast` text when it has one). */
export interface Toast {
  id: number;
  text: string;
  kind: 'error' | 'info';
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows a toast for `ms` (5000 ms, as push toasts in product-spec §9); answers its id (for {@link dismissToast}). */
export function showToast(text: string, kind: Toast['kind'] = 'error', ms = 5000): number {
  const toast = { id: nextId++, text, kind };
  toasts = [...toasts, toast];
  emit();
  setTimeout(() => dismissToast(toast.id), ms);
  return toast.id;
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The toasts, top of the page; announced to screen readers. */
export function Toaster() {
  const list = useSyncExternalStore(subscribe, () => toasts);
  return (
    <div className="toasts" aria-live="assertive">
      {list.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
        >
          <span>{toast.text}</span>
          <button type="button" className="toast-close" onClick={() => dismissToast(toast.id)}>
            {t('toast.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}
