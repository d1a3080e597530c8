// The validators a design's options are declared with: strict objects, enums, strings, whole
// numbers with bounds, booleans, lists, records, unions, literals, tuples and custom checks, each
// with its TypeScript type inferred, under the names and shapes zod gives them (`z.strictObject`,
// `z.number().int().min(1)`, `z.input<typeof Options>`), so a design reads as a zod schema does.
//
// Why not zod itself: every command validates a few option objects while it builds a design, and
// importing zod 4 took about 90 ms of a command's ~270 ms start (95 modules evaluated before the
// first run), for a dozen combinators whose error lines src/scenario/options.ts writes itself. This module
// loads in well under a millisecond. It reports problems as zod's issues do (a code, a path and
// the code's details), every one of them: a user fixes a file once, not once per mistake. A
// schema may carry a description (`.meta({ description })`), which src/base/jsonSchema.ts writes into
// the JSON Schema generated from it, so the schema that validates an input also documents it.

/** One problem with a value, at a path of keys and indexes inside it. */
export type Issue =
  | { readonly code: 'invalid_type'; readonly path: readonly PropertyKey[]; readonly expected: string; readonly message: string }
  | { readonly code: 'invalid_value'; readonly path: readonly PropertyKey[]; readonly values: readonly Literal[]; readonly message: string }
  | { readonly code: 'unrecognized_keys'; readonly path: readonly PropertyKey[]; readonly keys: readonly string[]; readonly known: readonly string[]; readonly message: string }
  | { readonly code: 'too_small' | 'too_big' | 'invalid_format' | 'invalid_union' | 'custom'; readonly path: readonly PropertyKey[]; readonly message: string };

/** A value an enum or a literal allows. */
export type Literal = string | number | boolean | null;

export type SafeParse<T> = { readonly success: true; readonly data: T } | { readonly success: false; readonly error: { readonly issues: readonly Issue[] } };

/** The wrapped schema of an optional one (any number deep), or the schema itself. */
export function unwrapOptional(schema: Schema): Schema {
  let s = schema;
  while (s instanceof OptionalSchema) s = s.inner as Schema;
  return s;
}

/** A check's verdict on a value: the value it parsed to, or the problem, found with the path it was given. */
type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly Issue[] };

const ok = (value: unknown): Checked => ({ ok: true, value });
const bad = (issue: Issue): Checked => ({ ok: false, issues: [issue] });
const fail = (issues: readonly Issue[]): Checked => ({ ok: false, issues });

/** What a schema says of itself for documentation: a sentence, and for a custom value its TypeScript type. */
export interface Meta {
  readonly description?: string;
  /** The TypeScript type of a value JSON cannot hold (a function), as a user writes it. */
  readonly typescript?: string;
  /** A preset's option that takes a part's own options (models/designs/partOptions.ts): the part's factory. */
  readonly partOf?: string;
}

export abstract class Schema<Out = unknown, In = Out> {
  /** The type a valid value parses to; for types only (`output<typeof S>`), never set. */
  declare readonly _output: Out;
  /** The type a caller may give; for types only (`input<typeof S>`), never set. */
  declare readonly _input: In;
  /** What the schema is, for code that walks a schema (the options reference in docs/options.md, error hints). */
  abstract readonly kind: string;
  /** Its description, when it was given one. */
  metadata: Meta | undefined;

  /** Checks a value found at `path`: what it parses to, or its first problem. */
  abstract check(value: unknown, path: readonly PropertyKey[]): Checked;

  /** How the schema reads in a message: "a string", "true or false". */
  abstract describe(): string;

  optional(): OptionalSchema<this> {
    return new OptionalSchema(this);
  }

  /** The same schema with a description (merged with any it had), as zod's `.meta()`. */
  meta(meta: Meta): this {
    const copy = Object.assign(Object.create(Object.getPrototypeOf(this) as object) as this, this);
    copy.metadata = { ...this.metadata, ...meta };
    return copy;
  }

  /** Parses a value: the parsed copy (objects and lists are new), or every problem found, in the order of the schema's keys. */
  safeParse(value: unknown): SafeParse<Out> {
    const r = this.check(value, []);
    return r.ok ? { success: true, data: r.value as Out } : { success: false, error: { issues: r.issues } };
  }
}

/** The type a schema parses to. */
export type output<S> = S extends Schema<infer O, unknown> ? O : never;
/** The type a schema accepts. */
export type input<S> = S extends Schema<unknown, infer I> ? I : never;

/** A value of the wrong type: `expected` names the type for code, the message says it as `describe` does. */
const typeIssue = (path: readonly PropertyKey[], expected: string, schema: Schema): Checked => bad({ code: 'invalid_type', path, expected, message: `must be ${schema.describe()}` });

export class OptionalSchema<S extends Schema<unknown, unknown>> extends Schema<output<S> | undefined, input<S> | undefined> {
  readonly kind = 'optional';
  constructor(readonly inner: S) {
    super();
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    return value === undefined ? ok(undefined) : this.inner.check(value, path);
  }
  describe(): string {
    return this.inner.describe();
  }
}

/** A bound on a number, a string's length or a list's length. */
export interface Bound {
  readonly code: 'too_small' | 'too_big';
  readonly limit: number;
  readonly inclusive: boolean;
  readonly message: string | undefined;
}

function outside(size: number, b: Bound): boolean {
  if (b.code === 'too_small') return b.inclusive ? size < b.limit : size <= b.limit;
  return b.inclusive ? size > b.limit : size >= b.limit;
}

function boundIssue(path: readonly PropertyKey[], b: Bound, of: 'number' | 'string' | 'array'): Issue {
  const unit = of === 'string' ? 'character' : 'item';
  const what = of === 'number' ? '' : ` ${b.limit === 1 ? unit : `${unit}s`}`;
  const relation = b.code === 'too_small' ? (b.inclusive ? 'at least' : 'more than') : b.inclusive ? 'at most' : 'less than';
  return { code: b.code, path, message: b.message ?? `must be ${relation} ${b.limit}${what}` };
}

export class StringSchema extends Schema<string> {
  readonly kind = 'string';
  constructor(
    readonly patterns: readonly { readonly re: RegExp; readonly message: string | undefined }[] = [],
    readonly bounds: readonly Bound[] = [],
  ) {
    super();
  }
  regex(re: RegExp, message?: string): StringSchema {
    return new StringSchema([...this.patterns, { re, message }], this.bounds);
  }
  min(length: number, message?: string): StringSchema {
    return new StringSchema(this.patterns, [...this.bounds, { code: 'too_small', limit: length, inclusive: true, message }]);
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    if (typeof value !== 'string') return typeIssue(path, 'string', this);
    for (const b of this.bounds) if (outside(value.length, b)) return bad(boundIssue(path, b, 'string'));
    for (const p of this.patterns) if (!p.re.test(value)) return bad({ code: 'invalid_format', path, message: p.message ?? `must match ${String(p.re)}` });
    return ok(value);
  }
  describe(): string {
    // A pattern that says what it wants (`a duration with its unit, such as …`) says it for the type too.
    const said = this.patterns.find((p) => p.message !== undefined && /^an? /.test(p.message));
    return said?.message ?? 'a string';
  }
}

export class NumberSchema extends Schema<number> {
  readonly kind = 'number';
  constructor(
    readonly whole = false,
    readonly bounds: readonly Bound[] = [],
  ) {
    super();
  }
  int(): NumberSchema {
    return new NumberSchema(true, this.bounds);
  }
  min(limit: number, message?: string): NumberSchema {
    return new NumberSchema(this.whole, [...this.bounds, { code: 'too_small', limit, inclusive: true, message }]);
  }
  max(limit: number, message?: string): NumberSchema {
    return new NumberSchema(this.whole, [...this.bounds, { code: 'too_big', limit, inclusive: true, message }]);
  }
  positive(message?: string): NumberSchema {
    return new NumberSchema(this.whole, [...this.bounds, { code: 'too_small', limit: 0, inclusive: false, message }]);
  }
  nonnegative(message?: string): NumberSchema {
    return new NumberSchema(this.whole, [...this.bounds, { code: 'too_small', limit: 0, inclusive: true, message }]);
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    // As zod: NaN and the infinities are not numbers an option can mean.
    if (typeof value !== 'number' || !Number.isFinite(value)) return typeIssue(path, 'number', this);
    if (this.whole && !Number.isSafeInteger(value)) return typeIssue(path, 'int', this);
    for (const b of this.bounds) if (outside(value, b)) return bad(boundIssue(path, b, 'number'));
    return ok(value);
  }
  describe(): string {
    return this.whole ? 'a whole number' : 'a number';
  }
}

export class BooleanSchema extends Schema<boolean> {
  readonly kind = 'boolean';
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    return typeof value === 'boolean' ? ok(value) : typeIssue(path, 'boolean', this);
  }
  describe(): string {
    return 'true or false';
  }
}

export class NullSchema extends Schema<null> {
  readonly kind = 'null';
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    return value === null ? ok(value) : typeIssue(path, 'null', this);
  }
  describe(): string {
    return 'null';
  }
}

/** One of a fixed list of values: an enum's strings, or a literal's one value. */
export class ValuesSchema<T extends Literal> extends Schema<T> {
  constructor(
    readonly kind: 'enum' | 'literal',
    readonly values: readonly T[],
  ) {
    super();
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    if ((this.values as readonly unknown[]).includes(value)) return ok(value);
    return bad({ code: 'invalid_value', path, values: this.values, message: `expected ${this.describe()}` });
  }
  describe(): string {
    return this.values.map((v) => JSON.stringify(v)).join(' or ');
  }
}

export class ArraySchema<E extends Schema<unknown, unknown>> extends Schema<output<E>[], readonly input<E>[]> {
  readonly kind = 'array';
  constructor(
    readonly element: E,
    readonly bounds: readonly Bound[] = [],
  ) {
    super();
  }
  min(length: number, message?: string): ArraySchema<E> {
    return new ArraySchema(this.element, [...this.bounds, { code: 'too_small', limit: length, inclusive: true, message }]);
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    if (!Array.isArray(value)) return typeIssue(path, 'array', this);
    const out: unknown[] = [];
    const issues: Issue[] = [];
    for (let i = 0; i < value.length; i++) {
      const r = this.element.check(value[i], [...path, i]);
      if (r.ok) out.push(r.value);
      else issues.push(...r.issues);
    }
    for (const b of this.bounds) if (outside(value.length, b)) issues.push(boundIssue(path, b, 'array'));
    return issues.length > 0 ? fail(issues) : ok(out);
  }
  describe(): string {
    return 'a list';
  }
}

type Outputs<T extends readonly Schema<unknown, unknown>[]> = { -readonly [K in keyof T]: output<T[K]> };
type Inputs<T extends readonly Schema<unknown, unknown>[]> = { readonly [K in keyof T]: input<T[K]> };

export class TupleSchema<T extends readonly Schema<unknown, unknown>[]> extends Schema<Outputs<T>, Inputs<T>> {
  readonly kind = 'tuple';
  constructor(readonly items: T) {
    super();
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    if (!Array.isArray(value)) return typeIssue(path, 'tuple', this);
    if (value.length !== this.items.length) return bad({ code: value.length < this.items.length ? 'too_small' : 'too_big', path, message: `must have exactly ${this.items.length} items` });
    const out: unknown[] = [];
    const issues: Issue[] = [];
    for (let i = 0; i < this.items.length; i++) {
      const r = this.items[i]!.check(value[i], [...path, i]);
      if (r.ok) out.push(r.value);
      else issues.push(...r.issues);
    }
    return issues.length > 0 ? fail(issues) : ok(out);
  }
  describe(): string {
    return `a list of ${this.items.length}`;
  }
}

/** A plain object: not null, not a list. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class RecordSchema<K extends Schema<string, string>, V extends Schema<unknown, unknown>> extends Schema<Record<output<K>, output<V>>, Record<input<K>, input<V>>> {
  readonly kind = 'record';
  constructor(
    readonly keyType: K,
    readonly valueType: V,
  ) {
    super();
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    if (!isRecord(value)) return typeIssue(path, 'record', this);
    const out: Record<string, unknown> = {};
    const issues: Issue[] = [];
    for (const key of Object.keys(value)) {
      const k = this.keyType.check(key, [...path, key]);
      if (!k.ok) {
        issues.push(...k.issues);
        continue;
      }
      const r = this.valueType.check(value[key], [...path, key]);
      if (r.ok) out[key] = r.value;
      else issues.push(...r.issues);
    }
    return issues.length > 0 ? fail(issues) : ok(out);
  }
  describe(): string {
    return 'an object';
  }
}

export class UnionSchema<T extends readonly Schema<unknown, unknown>[]> extends Schema<output<T[number]>, input<T[number]>> {
  readonly kind = 'union';
  constructor(readonly options: T) {
    super();
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    // The first option the value fits, as zod takes it.
    const failures: (readonly Issue[])[] = [];
    for (const o of this.options) {
      const r = o.check(value, path);
      if (r.ok) return r;
      failures.push(r.issues);
    }
    // A union of values only (a flag or a named mode) is one list of values to a user.
    const lists = this.options.map(valuesOf);
    if (lists.every((l) => l !== undefined)) return bad({ code: 'invalid_value', path, values: lists.flat(), message: `expected ${this.describe()}` });
    const closest = isRecord(value) ? closestObject(this.options as readonly Schema[], failures, path) : undefined;
    return closest ?? bad({ code: 'invalid_union', path, message: `expected ${this.describe()}` });
  }
  describe(): string {
    return [...new Set(this.options.map((o) => o.describe()))].join(', or ');
  }
}

/** The literal a strict object holds one of its keys to, when it does (`verdict: 'holds'`). */
function literalAt(schema: Schema, key: PropertyKey): ValuesSchema<Literal> | undefined {
  const s = unwrapOptional(schema);
  const field = s instanceof ObjectSchema ? unwrapOptional((s.shape as Readonly<Record<string, Schema>>)[String(key)] ?? s) : undefined;
  return field instanceof ValuesSchema && field.kind === 'literal' ? (field as ValuesSchema<Literal>) : undefined;
}

/**
 * An object that fits no object of a union: the problems of the object it comes closest to, the
 * one with the fewest problems (on a tie, the one whose literal keys it matches), so a user reads
 * what to change in the shape they meant. A literal key it gets wrong lists every option's value.
 */
function closestObject(options: readonly Schema[], failures: readonly (readonly Issue[])[], path: readonly PropertyKey[]): Checked | undefined {
  const mismatches = (i: number) => failures[i]!.filter((f) => f.code === 'invalid_value' && f.path.length === path.length + 1 && literalAt(options[i]!, f.path[path.length]!)).length;
  let best: number | undefined;
  for (let i = 0; i < options.length; i++) {
    if (!(unwrapOptional(options[i]!) instanceof ObjectSchema)) continue;
    if (best === undefined || failures[i]!.length < failures[best]!.length || (failures[i]!.length === failures[best]!.length && mismatches(i) < mismatches(best))) best = i;
  }
  if (best === undefined) return undefined;
  return fail(
    failures[best]!.map((f) => {
      if (f.code !== 'invalid_value' || f.path.length !== path.length + 1 || !literalAt(options[best]!, f.path[path.length]!)) return f;
      const values = [...new Set(options.flatMap((o) => literalAt(o, f.path[path.length]!)?.values ?? []))];
      return { ...f, values, message: `expected ${values.map((v) => JSON.stringify(v)).join(' or ')}` };
    }),
  );
}

/** Every value a schema allows, when it allows a few values and nothing else. */
function valuesOf(schema: Schema): readonly Literal[] | undefined {
  if (schema instanceof ValuesSchema) return schema.values as readonly Literal[];
  if (schema instanceof BooleanSchema) return [true, false];
  if (schema instanceof NullSchema) return [null];
  return undefined;
}

export class CustomSchema<T> extends Schema<T> {
  readonly kind = 'custom';
  constructor(
    readonly test: ((value: unknown) => boolean) | undefined,
    private readonly message: string | undefined,
  ) {
    super();
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    return this.test === undefined || this.test(value) ? ok(value) : bad({ code: 'custom', path, message: this.message ?? 'not a value this option takes' });
  }
  describe(): string {
    return 'a value this option takes';
  }
}

type Shape = Readonly<Record<string, Schema<unknown, unknown>>>;
/** The keys of a shape whose schema admits undefined: those a caller may leave out. */
type OptionalKeys<S extends Shape, W extends '_input' | '_output'> = { [K in keyof S]: undefined extends S[K][W] ? K : never }[keyof S];
type Flat<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<S extends Shape, W extends '_input' | '_output'> = Flat<{ [K in Exclude<keyof S, OptionalKeys<S, W>>]: S[K][W] } & { [K in OptionalKeys<S, W>]?: S[K][W] }>;

/** An object with exactly the shape's keys: one it does not name is an error, never ignored. */
export class ObjectSchema<S extends Shape> extends Schema<ObjectOf<S, '_output'>, ObjectOf<S, '_input'>> {
  readonly kind = 'object';
  constructor(readonly shape: S) {
    super();
  }
  /** The same object with more keys (a key it had is replaced). */
  extend<T extends Shape>(more: T): ObjectSchema<Flat<Omit<S, keyof T> & T>> {
    return new ObjectSchema({ ...this.shape, ...more } as Flat<Omit<S, keyof T> & T>);
  }
  /** The same object with only the keys the mask names. */
  pick<M extends { readonly [K in keyof S]?: true }>(mask: M): ObjectSchema<Flat<Pick<S, Extract<keyof M, keyof S>>>> {
    const shape: Record<string, Schema<unknown, unknown>> = {};
    for (const key of Object.keys(mask)) if (key in this.shape) shape[key] = this.shape[key]!;
    return new ObjectSchema(shape as Flat<Pick<S, Extract<keyof M, keyof S>>>);
  }
  /** The same object without the keys the mask names. */
  omit<M extends { readonly [K in keyof S]?: true }>(mask: M): ObjectSchema<Flat<Omit<S, keyof M>>> {
    const shape: Record<string, Schema<unknown, unknown>> = {};
    for (const key of Object.keys(this.shape)) if (!Object.hasOwn(mask, key)) shape[key] = this.shape[key]!;
    return new ObjectSchema(shape as Flat<Omit<S, keyof M>>);
  }
  /** The same object with every key optional. */
  partial(): ObjectSchema<{ [K in keyof S]: OptionalSchema<S[K]> }> {
    const shape: Record<string, Schema<unknown, unknown>> = {};
    for (const key of Object.keys(this.shape)) {
      const field = this.shape[key]!;
      shape[key] = field instanceof OptionalSchema ? field : field.optional();
    }
    return new ObjectSchema(shape as { [K in keyof S]: OptionalSchema<S[K]> });
  }
  check(value: unknown, path: readonly PropertyKey[]): Checked {
    if (!isRecord(value)) return typeIssue(path, 'object', this);
    const out: Record<string, unknown> = {};
    const issues: Issue[] = [];
    // The keys it names first, in its order, then the keys it does not know: as zod reports them.
    for (const key of Object.keys(this.shape)) {
      const r = this.shape[key]!.check(Object.hasOwn(value, key) ? value[key] : undefined, [...path, key]);
      if (!r.ok) issues.push(...r.issues);
      else if (Object.hasOwn(value, key)) out[key] = r.value;
    }
    const unknown = Object.keys(value).filter((k) => !Object.hasOwn(this.shape, k));
    if (unknown.length > 0) issues.push({ code: 'unrecognized_keys', path, keys: unknown, known: Object.keys(this.shape), message: `has no option ${unknown.join(', ')}` });
    return issues.length > 0 ? fail(issues) : ok(out);
  }
  describe(): string {
    return 'an object';
  }
}

export function string(): StringSchema {
  return new StringSchema();
}

export function number(): NumberSchema {
  return new NumberSchema();
}

export function boolean(): BooleanSchema {
  return new BooleanSchema();
}

function nullSchema(): NullSchema {
  return new NullSchema();
}

function enumSchema<const T extends readonly [string, ...string[]]>(values: T): ValuesSchema<T[number]> {
  return new ValuesSchema('enum', values);
}

export function literal<const T extends Literal>(value: T): ValuesSchema<T> {
  return new ValuesSchema('literal', [value]);
}

export function array<E extends Schema<unknown, unknown>>(element: E): ArraySchema<E> {
  return new ArraySchema(element);
}

export function tuple<const T extends readonly Schema<unknown, unknown>[]>(items: T): TupleSchema<T> {
  return new TupleSchema(items);
}

export function record<K extends Schema<string, string>, V extends Schema<unknown, unknown>>(keyType: K, valueType: V): RecordSchema<K, V> {
  return new RecordSchema(keyType, valueType);
}

export function union<const T extends readonly Schema<unknown, unknown>[]>(options: T): UnionSchema<T> {
  return new UnionSchema(options);
}

/** A value of type T that `test` accepts (any value, without one). */
export function custom<T>(test?: (value: unknown) => boolean, message?: string): CustomSchema<T> {
  return new CustomSchema<T>(test, message);
}

export function strictObject<S extends Shape>(shape: S): ObjectSchema<S> {
  return new ObjectSchema(shape);
}

// `enum` and `null` are reserved words: they can be exported under those names, not declared.
export { enumSchema as enum, nullSchema as null };
