import { describe, expect, it } from 'vitest';
import { checkSettingsSchema, validateCustomFields } from './json-schema.js';

/**
 * The schema the web's form builder writes (web/src/organizations/fields/fieldModel.ts), as a literal: the server
 * must accept it as a settings document and validate case-plan values against it, ignoring the builder's `x-`
 * keywords (`x-order`, `x-visibility`, `x-widget`).
 */
const BUILT = {
  type: 'object',
  properties: {
    goal: { type: 'string', title: 'Goal', 'x-visibility': 'everyone', 'x-order': 0 },
    notes: { type: 'string', 'x-widget': 'textarea', title: 'Notes', 'x-visibility': 'staff', 'x-order': 1 },
    children: { type: 'number', title: 'Children', 'x-visibility': 'everyone', 'x-order': 2 },
    consent: { type: 'boolean', title: 'Consent', 'x-visibility': 'everyone', 'x-order': 3 },
    intakeDate: {
      type: 'string',
      format: 'date',
      title: 'Intake date',
      'x-visibility': 'staff',
      'x-order': 4,
    },
    risk: { type: 'string', enum: ['Low', 'High'], title: 'Risk', 'x-visibility': 'everyone', 'x-order': 5 },
  },
  required: ['goal'],
};

describe('custom-field schemas written by the form builder', () => {
  it('are accepted as settings documents', () => {
    expect(() => checkSettingsSchema(BUILT)).not.toThrow();
  });

  it('accept values of every builder type', () => {
    expect(() =>
      validateCustomFields(BUILT, {
        goal: 'Stable housing',
        notes: 'Line one\nLine two',
        children: 2,
        consent: true,
        intakeDate: '2026-11-02',
        risk: 'High',
      }),
    ).not.toThrow();
  });

  it.each([
    [{}, `Invalid custom fields: must have required property 'goal'`],
    [{ goal: 'x', intakeDate: '02.11.2026' }, 'Invalid custom fields: intakeDate must match format "date"'],
    [{ goal: 'x', risk: 'Medium' }, 'Invalid custom fields: risk must be equal to one of the allowed values'],
    [{ goal: 'x', children: 'two' }, 'Invalid custom fields: children must be number'],
  ])('refuse %j with a message naming the field (%s)', (value, message) => {
    expect(() => validateCustomFields(BUILT, value)).toThrow(message);
  });
});
