import { describe, expect, it } from 'vitest';
import {
  keyFromLabel,
  modelProblems,
  modelToSchema,
  newField,
  schemaToModel,
  type BuilderField,
  type FieldsModel,
} from './fieldModel';

const field = (over: Partial<BuilderField> & Pick<BuilderField, 'key'>): BuilderField => ({
  kind: 'field',
  isNew: false,
  label: over.key,
  description: '',
  type: 'text',
  options: [],
  required: false,
  visibility: 'everyone',
  integer: false,
  extra: {},
  ...over,
});

describe('custom-field schema <-> form builder model', () => {
  it('writes every field type as JSON Schema, with order, required and visibility', () => {
    const model: FieldsModel = {
      rootExtra: {},
      orphanRequired: [],
      fields: [
        field({ key: 'goal', label: 'Goal', required: true }),
        field({ key: 'notes', label: 'Notes', type: 'longText', description: 'For the team' }),
        field({ key: 'children', label: 'Children', type: 'number' }),
        field({ key: 'consent', label: 'Consent given', type: 'boolean' }),
        field({ key: 'intakeDate', label: 'Intake date', type: 'date', visibility: 'staff' }),
        field({ key: 'risk', label: 'Risk', type: 'choice', options: [' Low', 'High', '', 'High'] }),
      ],
    };
    expect(modelToSchema(model)).toEqual({
      type: 'object',
      properties: {
        goal: { type: 'string', title: 'Goal', 'x-visibility': 'everyone', 'x-order': 0 },
        notes: {
          type: 'string',
          'x-widget': 'textarea',
          title: 'Notes',
          description: 'For the team',
          'x-visibility': 'everyone',
          'x-order': 1,
        },
        children: { type: 'number', title: 'Children', 'x-visibility': 'everyone', 'x-order': 2 },
        consent: { type: 'boolean', title: 'Consent given', 'x-visibility': 'everyone', 'x-order': 3 },
        intakeDate: {
          type: 'string',
          format: 'date',
          title: 'Intake date',
          'x-visibility': 'staff',
          'x-order': 4,
        },
        risk: {
          type: 'string',
          enum: ['Low', 'High'],
          title: 'Risk',
          'x-visibility': 'everyone',
          'x-order': 5,
        },
      },
      required: ['goal'],
    });
  });

  it('reads what it wrote back to the same model (order from x-order, not from key order)', () => {
    const model: FieldsModel = {
      rootExtra: {},
      orphanRequired: [],
      fields: [
        field({ key: 'zeta', label: 'Zeta', type: 'choice', options: ['a', 'b'], required: true }),
        field({ key: 'alpha', label: 'Alpha', type: 'date', visibility: 'staff' }),
        field({ key: 'mid', label: 'Mid', type: 'number', integer: true, extra: { minimum: 0 } }),
      ],
    };
    const schema = modelToSchema(model);
    // jsonb sorts keys: simulate it, the order must come from x-order.
    const props = schema.properties as Record<string, unknown>;
    const sorted = { ...schema, properties: Object.fromEntries(Object.entries(props).sort()) };
    expect(schemaToModel(JSON.parse(JSON.stringify(sorted)) as Record<string, unknown>)).toEqual(model);
  });

  it('keeps a hand-made schema: unsupported properties read-only, limits and root keywords kept', () => {
    const handMade = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: {
        goal: { type: 'string', title: 'Goal', maxLength: 100 },
        household: { type: 'array', items: { type: 'string' } },
        score: { enum: [1, 2, 3] },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0 },
        nullable: { type: ['string', 'null'] },
      },
      required: ['goal', 'household', 'legacy'],
    };
    const model = schemaToModel(handMade);
    expect(model.fields.map((f) => [f.key, f.kind])).toEqual([
      ['goal', 'field'],
      ['household', 'raw'],
      ['score', 'raw'],
      ['email', 'raw'],
      ['age', 'field'],
      ['nullable', 'raw'],
    ]);
    expect(model.fields[0]).toMatchObject({ label: 'Goal', type: 'text', required: true });
    expect(model.fields[4]).toMatchObject({ label: 'age', type: 'number', integer: true });
    const written = modelToSchema(model);
    expect(written.$schema).toBe(handMade.$schema);
    expect(written.additionalProperties).toBe(false);
    expect(written.required).toEqual(['goal', 'household', 'legacy']);
    const props = written.properties as Record<string, Record<string, unknown>>;
    // Unsupported properties are kept as they were, plus their position.
    expect(props.household).toEqual({ ...handMade.properties.household, 'x-order': 1 });
    expect(props.score).toEqual({ ...handMade.properties.score, 'x-order': 2 });
    expect(props.nullable).toEqual({ ...handMade.properties.nullable, 'x-order': 5 });
    expect(props.goal).toEqual({
      type: 'string',
      title: 'Goal',
      maxLength: 100,
      'x-visibility': 'everyone',
      'x-order': 0,
    });
    expect(props.age).toMatchObject({ type: 'integer', minimum: 0, title: 'age' });
    // A second trip changes nothing more.
    expect(modelToSchema(schemaToModel(written))).toEqual(written);
  });

  it('reads an empty or unset document as no fields, and writes a valid object schema', () => {
    const model = schemaToModel({ type: 'object', properties: {} });
    expect(model.fields).toEqual([]);
    expect(modelToSchema(model)).toEqual({ type: 'object', properties: {} });
    expect(schemaToModel({}).fields).toEqual([]);
  });

  it('derives a stable camelCase key from a label, unique among the keys taken', () => {
    expect(keyFromLabel('Intake date', new Set())).toBe('intakeDate');
    expect(keyFromLabel('Første møte på skolen', new Set())).toBe('forsteMotePaSkolen');
    expect(keyFromLabel('Kjærlighet', new Set())).toBe('kjaerlighet');
    expect(keyFromLabel('2nd contact', new Set())).toBe('field2ndContact');
    expect(keyFromLabel('  ', new Set())).toBe('field');
    expect(keyFromLabel('Goal', new Set(['goal', 'goal2']))).toBe('goal3');
    const model = schemaToModel({ type: 'object', properties: { field: { type: 'string' } } });
    expect(newField(model).key).toBe('field2');
  });

  it('reports unsavable fields: empty label, repeated label, choice without options', () => {
    const model: FieldsModel = {
      rootExtra: {},
      orphanRequired: [],
      fields: [
        field({ key: 'a', label: ' ' }),
        field({ key: 'b', label: 'Goal' }),
        field({ key: 'c', label: 'goal' }),
        field({ key: 'd', label: 'Risk', type: 'choice', options: [' '] }),
      ],
    };
    expect(modelProblems(model)).toEqual([
      { key: 'a', problem: 'label' },
      { key: 'c', problem: 'duplicateLabel' },
      { key: 'd', problem: 'options' },
    ]);
  });
});
