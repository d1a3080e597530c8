// The JSON Schema generated from a validator must accept exactly what the validator accepts, so
// an editor that checks a file against it agrees with the command line. Ajv (a JSON Schema
// validator, draft 2020-12) judges the generated schema; the values are generated too.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonOf, toJSONSchema } from '../../src/base/jsonSchema.ts';
import { duration } from '../../src/scenario/options.ts';
import * as z from '../../src/base/schema.ts';

const ajv = new Ajv2020({ strict: false });

const Options = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/).min(2),
  workers: z.number().int().min(1).max(8).optional(),
  ratio: z.number().positive().optional(),
  mark: z.enum(['afterSend', 'beforeSend']).optional(),
  keys: z.union([z.boolean(), z.enum(['intentBound', 'honoured'])]).optional(),
  latency: z.tuple([duration, duration]).optional(),
  tables: z.record(z.string(), z.strictObject({ key: z.array(z.string()).min(1), ttl: duration.optional() })).optional(),
  expect: z.union([z.strictObject({ verdict: z.literal('holds') }), z.strictObject({ verdict: z.literal('violated'), violations: z.array(z.string()).min(1) })]).optional(),
  none: z.null().optional(),
});

/** Values near the schema: right and wrong types, bounds and keys, mixed. */
const candidate = fc.record(
  {
    name: fc.oneof(fc.constantFrom('ab', 'a', 'Ab', 'a-1', ''), fc.integer()),
    workers: fc.oneof(fc.integer({ min: -1, max: 10 }), fc.constant(1.5), fc.constant('2')),
    ratio: fc.oneof(fc.constantFrom(0, -1, 0.5, 3)),
    mark: fc.constantFrom('afterSend', 'beforeSend', 'beforeSnd'),
    keys: fc.constantFrom(true, false, 'intentBound', 'honored', 1),
    latency: fc.constantFrom(['1s', '2s'], ['1s'], ['1s', 2], ['1 tick', '3 ticks'], ['1x', '1s']),
    tables: fc.constantFrom({ t: { key: ['id'] } }, { t: { key: [] } }, { t: { key: ['id'], ttl: '1d' } }, { t: { key: ['id'], tll: '1d' } }, { t: [] }),
    expect: fc.constantFrom({ verdict: 'holds' }, { verdict: 'violated', violations: ['x'] }, { verdict: 'violated' }, { verdict: 'hold' }, { verdict: 'holds', violations: ['x'] }),
    none: fc.constantFrom(null, 0),
    extra: fc.constant(1),
  },
  { requiredKeys: [] },
);

describe('the JSON Schema of a validator', () => {
  it('accepts exactly the values the validator accepts', () => {
    const valid = ajv.compile(toJSONSchema(Options, { id: 'test', title: 'test' }));
    fc.assert(
      fc.property(candidate, (value) => {
        expect(valid(value)).toBe(Options.safeParse(value).success);
      }),
      { numRuns: 500 },
    );
  });

  it('writes each field’s description, its TypeScript type when JSON cannot hold it, and which fields are required', () => {
    const schema = z.strictObject({
      name: z.string().meta({ description: 'The scenario’s name.' }),
      build: z.custom<() => void>((v) => typeof v === 'function').meta({ description: 'The design.', typescript: '(workload, time) => DesignComponent[]' }),
      tick: duration.optional().meta({ description: 'How long a tick is.' }),
    });
    expect(jsonOf(schema)).toEqual({
      type: 'object',
      properties: {
        name: { description: 'The scenario’s name.', type: 'string' },
        build: { description: 'The design.', 'x-typescript': '(workload, time) => DesignComponent[]' },
        tick: { description: 'How long a tick is.', type: 'string', pattern: duration.patterns[0]!.re.source },
      },
      required: ['name', 'build'],
      additionalProperties: false,
    });
    expect(toJSONSchema(schema, { id: 'x.schema.json', title: 'X' })).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'x.schema.json', title: 'X' });
  });
});
