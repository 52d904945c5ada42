import { cloneElement, useId, useState, type FormEvent, type ReactElement, type ReactNode } from 'react';
import './domain.css';
import { t } from '../i18n/t';
import { errorMessage, toastSaved } from './feedback';
import type { Loaded } from './useLoad';

/** Renders loading, error (with retry) and ready states of a {@link Loaded} value. */
export function LoadState<T>({
  state,
  onRetry,
  children,
}: {
  state: Loaded<T>;
  onRetry: () => void;
  children: (data: T) => ReactNode;
}) {
  if (state.status === 'loading') {
    return (
      <p className="muted" role="status">
        {t('app.loading')}
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <div role="alert" className="inline-error">
        <span>{t('domain.loadError', { message: state.error })}</span>{' '}
        <button type="button" className="button button-small" onClick={onRetry}>
          {t('app.retry')}
        </button>
      </div>
    );
  }
  return <>{children(state.data)}</>;
}

/**
 * A form that runs one action; shows "working" while it runs, `success` as a status toast when it worked and
 * the server's message when it failed. `onSubmit` answers false to keep what was typed (edit forms).
 */
export function ActionForm({
  label,
  submit,
  onSubmit,
  success,
  children,
}: {
  label: string;
  submit: string;
  onSubmit: (form: FormData) => Promise<boolean | void>;
  /** Announced after a successful submit ("Team added"); absent: "Saved". */
  success?: string;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const handle = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setBusy(true);
    setError(null);
    try {
      if ((await onSubmit(new FormData(form))) !== false) form.reset();
      toastSaved(success);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="domain-form" aria-label={label} aria-busy={busy} onSubmit={(e) => void handle(e)}>
      {children}
      <button type="submit" className="button button-small" disabled={busy}>
        {busy ? t('domain.working') : submit}
      </button>
      {error ? (
        <p role="alert" className="inline-error">
          {t('domain.edit.refused', { message: error })}
        </p>
      ) : null}
    </form>
  );
}

/**
 * A labelled control. The label points at the control by id rather than wrapping it, so a select's name is
 * its label alone (a wrapped select would add its chosen option to its accessible name).
 */
export function Field({ label, children }: { label: string; children: ReactElement<{ id?: string }> }) {
  const id = useId();
  return (
    <div className="domain-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {cloneElement(children, { id })}
    </div>
  );
}

export const text = (form: FormData, name: string): string => String(form.get(name) ?? '').trim();
