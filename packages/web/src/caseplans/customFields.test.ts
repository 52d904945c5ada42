import { describe, expect, it } from 'vitest';
import { fieldOfError, inputKind, readFieldValue } from './customFields';
import { orderedProperties } from './fieldOrder';

describe('custom fields on a case plan', () => {
  it('places a server refusal beside the field it names (ajv messages as the server words them)', () => {
    const names = ['goal', 'caseNumber', 'intakeDate'];
    expect(fieldOfError('Invalid custom fields: caseNumber must be multiple of 10', names)).toEqual({
      name: 'caseNumber',
      text: 'must be multiple of 10',
    });
    expect(fieldOfError(`Invalid custom fields: must have required property 'goal'`, names)).toEqual({
      name: 'goal',
      text: `must have required property 'goal'`,
    });
    expect(fieldOfError('Invalid custom fields: intakeDate must match format "date"', names)?.name).toBe(
      'intakeDate',
    );
    // Not about one of the form's fields, or not a field refusal at all: no field is marked.
    expect(fieldOfError('Invalid custom fields: other must be string', names)).toBeNull();
    expect(fieldOfError('Caseplan is closed', names)).toBeNull();
  });

  it('gives each builder type its control, and reads the submitted value as the schema wants it', () => {
    expect(inputKind({ type: 'string', format: 'date' })).toBe('date');
    expect(inputKind({ type: 'string', 'x-widget': 'textarea' })).toBe('longText');
    expect(inputKind({ type: 'string', enum: ['a'] })).toBe('choice');
    expect(inputKind({ type: 'integer' })).toBe('number');
    expect(inputKind({ type: 'boolean' })).toBe('boolean');
    expect(inputKind({ type: 'array' })).toBe('other');
    const form = new FormData();
    form.set('n', '42');
    form.set('empty', '  ');
    form.set('flag', 'on');
    form.set('d', '2026-11-02');
    expect(readFieldValue(form, 'n', { type: 'number' })).toBe(42);
    expect(readFieldValue(form, 'empty', { type: 'string' })).toBeNull();
    expect(readFieldValue(form, 'flag', { type: 'boolean' })).toBe(true);
    expect(readFieldValue(form, 'missing', { type: 'boolean' })).toBe(false);
    expect(readFieldValue(form, 'd', { type: 'string', format: 'date' })).toBe('2026-11-02');
  });

  it('orders properties by x-order, unordered ones after in document order', () => {
    const schema = {
      type: 'object',
      properties: {
        c: { type: 'string' },
        b: { type: 'string', 'x-order': 1 },
        a: { type: 'string', 'x-order': 0 },
        d: { type: 'string' },
      },
    };
    expect(orderedProperties(schema).map(([name]) => name)).toEqual(['a', 'b', 'c', 'd']);
    expect(orderedProperties({ type: 'object' })).toEqual([]);
  });
});
