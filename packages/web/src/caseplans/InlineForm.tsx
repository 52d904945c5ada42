import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { t } from '../i18n/t';
import { useSaving } from './feedback';
import './caseplanEdit.css';

/**
 * An edit form opened in place (rename a team, edit a role, seat a person): focus goes to its first control,
 * Escape or Cancel closes it, Save runs `onSubmit` with the buttons disabled, announces `success` and closes;
 * a refusal stays on screen in the server's words, with what was typed kept.
 */
export function InlineForm(props: {
  label: string;
  submit?: string;
  success: string;
  onSubmit: (form: FormData) => Promise<unknown>;
  /** Called after a successful save (reload the plan). */
  onDone: () => void;
  onCancel: () => void;
  children: ReactNode;
  className?: string;
}) {
  const { label, submit = t('domain.edit.save'), success, onSubmit, onDone, onCancel, children } = props;
  const saving = useSaving();
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);
  const handle = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    if (await saving.run(() => onSubmit(data), { success })) onDone();
  };
  return (
    <form
      ref={ref}
      className={`cp-inline ${props.className ?? ''}`}
      aria-label={label}
      aria-busy={saving.busy}
      onSubmit={(e) => void handle(e)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !saving.busy) {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="cp-inline-fields">{children}</div>
      <div className="cp-inline-actions">
        <button type="submit" className="button button-primary button-small" disabled={saving.busy}>
          {saving.busy ? t('domain.edit.saving') : submit}
        </button>
        <button type="button" className="button button-small" disabled={saving.busy} onClick={onCancel}>
          {t('domain.edit.cancel')}
        </button>
      </div>
      {saving.error ? (
        <p role="alert" className="inline-error cp-inline-error">
          {t('domain.edit.refused', { message: saving.error })}
        </p>
      ) : null}
    </form>
  );
}
