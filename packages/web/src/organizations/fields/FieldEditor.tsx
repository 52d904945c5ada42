import { useId } from 'react';
import type { FieldVisibility } from '@caseroom/protocol';
import { t } from '../../i18n/t';
import {
  FIELD_TYPES,
  ORDER_KEYWORD,
  type BuilderField,
  type FieldProblem,
  type FieldType,
  type RawField,
} from './fieldModel';

const TYPE_LABEL = {
  text: 'domain.fields.type.text',
  longText: 'domain.fields.type.longText',
  number: 'domain.fields.type.number',
  boolean: 'domain.fields.type.boolean',
  date: 'domain.fields.type.date',
  choice: 'domain.fields.type.choice',
} as const satisfies Record<FieldType, string>;

const PROBLEM_TEXT = {
  label: 'domain.fields.problem.label',
  duplicateLabel: 'domain.fields.problem.duplicateLabel',
  options: 'domain.fields.problem.options',
} as const satisfies Record<FieldProblem['problem'], string>;

interface Placement {
  position: number;
  count: number;
  /** Moves the field up (-1) or down (1); `focus` is the control to focus afterwards. */
  onMove: (by: -1 | 1, focus: string) => void;
  onRemove: () => void;
}

/** Move up, move down and remove: buttons named after the field for screen readers. */
function FieldTools({
  name,
  focusKey,
  position,
  count,
  onMove,
  onRemove,
}: Placement & { name: string; focusKey: string }) {
  // A field moved to the top or bottom loses the button just pressed: focus the other one.
  const upFocus = position - 1 <= 1 ? `${focusKey}:down` : `${focusKey}:up`;
  const downFocus = position + 1 >= count ? `${focusKey}:up` : `${focusKey}:down`;
  return (
    <div className="fb-tools">
      <button
        type="button"
        className="button button-small"
        data-focus-key={`${focusKey}:up`}
        disabled={position === 1}
        aria-label={t('domain.fields.moveUp', { name })}
        onClick={() => onMove(-1, upFocus)}
      >
        <span aria-hidden="true">↑</span>
      </button>
      <button
        type="button"
        className="button button-small"
        data-focus-key={`${focusKey}:down`}
        disabled={position === count}
        aria-label={t('domain.fields.moveDown', { name })}
        onClick={() => onMove(1, downFocus)}
      >
        <span aria-hidden="true">↓</span>
      </button>
      <button
        type="button"
        className="button button-small fb-remove"
        aria-label={t('domain.fields.remove', { name })}
        onClick={onRemove}
      >
        {t('domain.fields.removeShort')}
      </button>
    </div>
  );
}

/** One field of the builder: name, type, choices, help text, who may see it, required; move and remove. */
export function FieldEditor(
  props: Placement & {
    field: BuilderField;
    /** The field's type as saved (absent for a new field): changing it may not fit the values already stored. */
    savedType?: FieldType | undefined;
    problems: FieldProblem['problem'][];
    onChange: (change: Partial<BuilderField>) => void;
  },
) {
  const { field, problems, onChange } = props;
  const id = useId();
  const name = field.label.trim() || t('domain.fields.untitled');
  const labelProblem = problems.find((p) => p === 'label' || p === 'duplicateLabel');
  const optionsProblem = problems.includes('options');
  const typeChanged = props.savedType !== undefined && props.savedType !== field.type;
  // The focus key of a new field changes with its name; the row's React key does not, so focus stays put.
  const focusKey = field.key;
  return (
    <div className="fb-field">
      <div className="fb-row">
        <span className="fb-position" aria-hidden="true">
          {props.position}
        </span>
        <div className="fb-control fb-name">
          <label className="field-label" htmlFor={`${id}-label`}>
            {t('domain.fields.name')}
          </label>
          <input
            id={`${id}-label`}
            data-focus-key={`${focusKey}:label`}
            value={field.label}
            maxLength={200}
            placeholder={t('domain.fields.namePlaceholder')}
            aria-invalid={labelProblem ? true : undefined}
            aria-describedby={labelProblem ? `${id}-label-problem` : `${id}-key`}
            onChange={(e) => props.onChange({ label: e.target.value })}
          />
          {labelProblem ? (
            <p id={`${id}-label-problem`} className="cf-error">
              {t(PROBLEM_TEXT[labelProblem])}
            </p>
          ) : null}
          <p id={`${id}-key`} className="fb-key">
            {field.isNew
              ? t('domain.fields.keyNew', { key: field.key })
              : t('domain.fields.key', { key: field.key })}
          </p>
        </div>
        <div className="fb-control fb-type">
          <label className="field-label" htmlFor={`${id}-type`}>
            {t('domain.fields.type')}
          </label>
          <select
            id={`${id}-type`}
            value={field.type}
            aria-describedby={typeChanged ? `${id}-type-warning` : undefined}
            onChange={(e) => onChange({ type: e.target.value as FieldType })}
          >
            {FIELD_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(TYPE_LABEL[type])}
              </option>
            ))}
          </select>
          {typeChanged ? (
            <p id={`${id}-type-warning`} className="fb-warning">
              {t('domain.fields.typeChanged')}
            </p>
          ) : null}
        </div>
        <div className="fb-control fb-visibility">
          <label className="field-label" htmlFor={`${id}-visibility`}>
            {t('domain.fields.visibility')}
          </label>
          <select
            id={`${id}-visibility`}
            value={field.visibility}
            onChange={(e) => onChange({ visibility: e.target.value as FieldVisibility })}
          >
            <option value="everyone">{t('domain.fields.visibility.everyone')}</option>
            <option value="staff">{t('domain.fields.visibility.staff')}</option>
          </select>
        </div>
      </div>
      {field.type === 'choice' ? (
        <div className="fb-control fb-options">
          <label className="field-label" htmlFor={`${id}-options`}>
            {t('domain.fields.options')}
          </label>
          <textarea
            id={`${id}-options`}
            rows={3}
            value={field.options.join('\n')}
            aria-invalid={optionsProblem ? true : undefined}
            aria-describedby={`${id}-options-hint`}
            onChange={(e) => onChange({ options: e.target.value.split('\n') })}
          />
          <p id={`${id}-options-hint`} className={optionsProblem ? 'cf-error' : 'fb-key'}>
            {optionsProblem ? t('domain.fields.problem.options') : t('domain.fields.optionsHint')}
          </p>
        </div>
      ) : null}
      <div className="fb-row fb-bottom">
        <div className="fb-control fb-description">
          <label className="field-label" htmlFor={`${id}-description`}>
            {t('domain.fields.description')}
          </label>
          <input
            id={`${id}-description`}
            value={field.description}
            maxLength={500}
            onChange={(e) => onChange({ description: e.target.value })}
          />
        </div>
        <div className="fb-check">
          <input
            id={`${id}-required`}
            type="checkbox"
            checked={field.required}
            onChange={(e) => onChange({ required: e.target.checked })}
          />
          <label htmlFor={`${id}-required`}>{t('domain.fields.required')}</label>
        </div>
        <FieldTools {...props} name={name} focusKey={focusKey} />
      </div>
    </div>
  );
}

/** A property the builder cannot edit (made by hand): shown as its JSON, kept when saving, removable. */
export function RawFieldView(props: Placement & { field: RawField }) {
  const { field } = props;
  const shown =
    typeof field.schema === 'object' && field.schema !== null
      ? Object.fromEntries(Object.entries(field.schema).filter(([k]) => k !== ORDER_KEYWORD))
      : field.schema;
  const title =
    typeof shown === 'object' && shown !== null && typeof (shown as { title?: unknown }).title === 'string'
      ? (shown as { title: string }).title
      : field.key;
  return (
    <div className="fb-field fb-raw">
      <div className="fb-row">
        <span className="fb-position" aria-hidden="true">
          {props.position}
        </span>
        <div className="fb-raw-text">
          <strong>{title}</strong> <span className="tag">{t('domain.fields.handMade')}</span>
          {field.required ? <span className="tag">{t('domain.fields.required')}</span> : null}
          <p className="fb-key">{t('domain.fields.rawHint', { key: field.key })}</p>
        </div>
      </div>
      <details className="fb-json">
        <summary>{t('domain.fields.showJson', { name: title })}</summary>
        <pre>{JSON.stringify(shown, null, 2)}</pre>
      </details>
      <div className="fb-row fb-bottom">
        <FieldTools {...props} name={title} focusKey={field.key} />
      </div>
    </div>
  );
}
