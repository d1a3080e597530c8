// Worlds at the edge of the transaction: a producer's committed facts reach a consumer through
// the broker, and the consumer's effect is a call to an external provider (a carrier booking a
// pickup, a payment provider capturing, an email provider accepting a message). Each design
// option of the seeds is one field: what the caller sends and records, what the provider
// honours, whether a reconciler owns unknown outcomes, and how an operator's rebuild replays the
// log. The claims observe the provider's own records, since that is where the effect happens.
import type { Claim, ClaimTable, ClaimTables, Outcome, SqlType } from '../../src/checkers/claims.ts';
import { design, given, type DesignBuild } from '../../src/scenario/design.ts';
import { InputError } from '../../src/base/inputError.ts';
import { duration, parseOptions, z } from '../../src/scenario/options.ts';
import type { WindowNote } from '../../src/scenario/scenario.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import { broker, BrokerOptions, type Payload } from '../broker.ts';
import { CALLER_TABLES, caller as callerComponent, CallerOptions, effectKeyOf, intentFieldsOf, intentValues, type CallerInput } from '../caller.ts';
import type { DesignIndex } from '../../src/checkers/designIndex.ts';
import { didYouMean } from '../../src/base/nearest.ts';
import { missingFields } from '../payloadFields.ts';
import { rowsOf, type DatabaseDurable } from '../database.ts';
import { operator } from '../operator.ts';
import { operationsOf, provider as providerComponent, ProviderOptions, type ProviderDurable, type ProviderInput } from '../provider.ts';
import { publishedFacts, publisher, PublisherOptions, type PublisherDurable } from '../publisher.ts';
import { reconciler, ReconcilerOptions } from '../reconciler.ts';
import { database, databaseComponent } from './databaseComponent.ts';
import { changedTables, databaseOwn, partOptions, presetDatabase } from './partOptions.ts';
import { ledgerView, publishedView } from './tableViews.ts';
import { windowNote as n } from './windowNotes.ts';

/** The names the pipeline gives its components and tables, and the tables its claims read by default. */
export const PROVIDER_PIPELINE = {
  components: { publisher: 'publisher', broker: 'broker', callerDb: 'callerDb', caller: 'caller', provider: 'provider', reconciler: 'reconciler', rebuild: 'rebuild', rebuildDb: 'rebuildDb', operator: 'operator' },
  tables: { effectIntents: 'effect_intents', effectOutcomes: 'effect_outcomes' },
  /** What providerClaim names the provider's ledger and the publisher's facts unless told otherwise. */
  claimTables: { ledger: 'provider_operations', facts: 'published_events' },
} as const;

/** The pipeline's options: what the caller sends and records, what the provider honours, who reconciles, how a rebuild replays; each part takes its own options; durations in their units. */
export const ProviderPipelineOptions = z.strictObject({
  /** The committed facts, given the workload size. */
  records: z.custom<(size: number) => readonly Payload[]>((v) => typeof v === 'function'),
  /** The payload field the broker partitions by. */
  keyField: z.string(),
  /** The consumer group of the live caller. */
  group: z.string(),
  caller: CallerOptions.omit({ name: true, notes: true, broker: true, group: true, db: true, provider: true, sideEffects: true }).meta({
    partOf: 'caller',
    description: 'Any option of caller but its wiring, group and sideEffects; effectKey, sendKey, statusLookup and recordIntent are required.',
  }),
  provider: ProviderOptions.omit({ name: true, notes: true }).meta({ partOf: 'provider', description: 'Any option of provider but name; idempotency and statusLookup are required.' }),
  publisher: partOptions('publisher', PublisherOptions, { name: true, notes: true, broker: true, records: true, keyField: true }),
  broker: partOptions('broker', BrokerOptions, { name: true, notes: true, restorable: true }),
  /** The caller's database: any option of database (its restart delay, its periodic backups…), and changes to its tables. */
  callerDb: presetDatabase(PROVIDER_PIPELINE.components.callerDb),
  /** A reconciler sweeps the caller's PENDING intents and UNKNOWN outcomes and resolves them with the provider. */
  reconciler: partOptions('reconciler', ReconcilerOptions, { name: true, notes: true, db: true, provider: true, recordIntent: true }),
  /**
   * An operator rebuild `after` a while: through the live consumer identity (its read model
   * truncated, its group rewound to 0), or as a separate consumer group with its own database
   * whose side effects are gated (that group is rewound, the live one is never touched).
   */
  rebuild: z.strictObject({ through: z.enum(['liveConsumer', 'separateNamespace']), after: duration }).optional(),
  /**
   * The servers a `restore` fault can set back to their snapshot (none): `callerDb`, the caller's
   * records, to the backup taken before the workload (or the one `callerDb.backups` picks);
   * `broker`, its group offsets to where they stood then. Restored at the same moment (a pair of
   * faults, or one fault with `callerDbWithOffsets`), they are one consistent snapshot of the
   * consumer and its input position, replayed from the start (seed 003: "Restore an old snapshot
   * and replay the input").
   */
  restores: z.array(z.enum(['callerDb', 'broker', 'callerDbWithOffsets'])).optional(),
});

export type ProviderPipelineOptions = z.input<typeof ProviderPipelineOptions>;

export const REBUILD_SUFFIX = '-rebuild-v2';

export function providerPipeline(options: ProviderPipelineOptions): DesignBuild {
  const o = parseOptions('providerPipeline', ProviderPipelineOptions, options);
  const C = PROVIDER_PIPELINE.components;
  const callerInput: CallerInput = { broker: C.broker, group: o.group, db: C.callerDb, provider: C.provider, ...o.caller };
  const providerInput: Omit<ProviderInput, 'durable'> = { idempotency: o.provider.idempotency, statusLookup: o.provider.statusLookup };
  const rebuildGroup = `${o.group}${REBUILD_SUFFIX}`;
  const together = o.restores?.includes('callerDbWithOffsets') ?? false;
  return design(
    publisher({ ...given(o.publisher ?? {}), records: o.records, keyField: o.keyField, notes: publisherNotes }),
    broker({ ...given(o.broker ?? {}), ...(o.restores?.includes('broker') || together ? { restorable: true } : {}) }),
    callerDatabase(o, together),
    callerComponent({ group: o.group, ...o.caller, notes: callerNotes(callerInput, providerInput) }),
    providerComponent({ ...o.provider, notes: providerNotes(callerInput, providerInput, o.reconciler !== undefined) }),
    o.reconciler && reconciler({ ...given(o.reconciler), recordIntent: o.caller.recordIntent }),
    // The rebuild runs the same code under its own identity: its own group, its own database,
    // and the provider call gated off.
    o.rebuild?.through === 'separateNamespace' && [
      () => databaseComponent(C.rebuildDb, CALLER_TABLES, CALLER_ROWS),
      callerComponent({ ...o.caller, name: C.rebuild, group: rebuildGroup, db: C.rebuildDb, recordIntent: false, sideEffects: 'gated' }),
    ],
    o.rebuild !== undefined &&
      (o.rebuild.through === 'liveConsumer'
        ? operator({ group: o.group, after: o.rebuild.after, truncate: { db: C.callerDb, tables: Object.keys(CALLER_TABLES) } })
        : operator({ group: rebuildGroup, after: o.rebuild.after })),
  );
}

/**
 * The caller's database: restorable when the design restores it (alone or with the offsets),
 * from the backup before the workload or, with `callerDb.backups`, an aged one.
 */
function callerDatabase(o: z.output<typeof ProviderPipelineOptions>, together: boolean) {
  const own = databaseOwn(o.callerDb);
  if (own.backups !== undefined && !together && !o.restores?.includes('callerDb')) throw new InputError('providerPipeline option callerDb.backups is for a restore of callerDb: add callerDb or callerDbWithOffsets to restores');
  const restorable = together || (o.restores?.includes('callerDb') ?? false) || own.restorable === true;
  return database({
    ...own,
    name: PROVIDER_PIPELINE.components.callerDb,
    tables: changedTables('providerPipeline option callerDb', CALLER_TABLES, o.callerDb?.tables),
    rows: CALLER_ROWS,
    ...(restorable ? { restorable: true } : {}),
    ...(together ? { restoreWith: [PROVIDER_PIPELINE.components.broker] } : {}),
  });
}

/** The effect key inside a provider operation's canonical intent (`field=value&…`). */
export function keyOfIntent(intent: string, fields: readonly string[]): string {
  const values = intentValues(intent);
  return fields.map((f) => values.get(f) ?? '').join('/');
}

/** Every operation the provider performed, keyed by the effect key its intent carries. */
export function providerOutcomes(fields: readonly string[]): (v: WorldView) => Outcome[] {
  return (v) => operationsOf(v.durable<ProviderDurable>('provider')).map((op) => ({ key: keyOfIntent(op.intent, fields), intent: op.intent }));
}

/** The effect keys of the producer's committed facts: each must yield the effect. */
export function publishedKeys(fields: readonly string[]): (v: WorldView) => string[] {
  return (v) => [...new Set(publishedFacts(v.durable<PublisherDurable>('publisher')).map((p) => effectKeyOf(fields, p)))];
}

/** Local records that still say the outcome is not known: PENDING intents, UNKNOWN outcomes. */
export function unresolvedOutcomes(db = 'callerDb'): (v: WorldView) => string[] {
  return (v) => {
    const d = v.durable<DatabaseDurable>(db);
    return [
      ...rowsOf(d, 'effect_intents')
        .filter((r) => r['state'] === 'PENDING')
        .map((r) => `${r['key']} (intent PENDING)`),
      ...rowsOf(d, 'effect_outcomes')
        .filter((r) => r['state'] === 'UNKNOWN')
        .map((r) => `${r['key']} (outcome UNKNOWN)`),
    ];
  };
}

/**
 * Calls that reused an effect key with a different intent, judged against the authority: a key
 * is bound to the intent of the provider's first operation under it. A caller's outcome for
 * another intent under that key was refused when it came back CONFLICT, and mishandled when it
 * came back SUCCEEDED (the provider honoured the key without binding it to the intent and
 * returned another request's operation). A key whose first call never reached the provider is
 * free, and the next intent may take it.
 */
export function keyConflicts(db = 'callerDb'): (v: WorldView) => { key: string; refused: boolean }[] {
  return (v) => {
    const binding = new Map<string, string>();
    for (const op of operationsOf(v.durable<ProviderDurable>('provider'))) if (op.key !== null && !binding.has(op.key)) binding.set(op.key, op.intent);
    return rowsOf(v.durable<DatabaseDurable>(db), 'effect_outcomes')
      .filter((r) => {
        const bound = binding.get(String(r['key']));
        return bound !== undefined && bound !== String(r['intent']) && (r['state'] === 'SUCCEEDED' || r['state'] === 'CONFLICT');
      })
      .map((r) => ({ key: `${r['key']} (${r['intent']})`, refused: r['state'] === 'CONFLICT' }));
  };
}

/** The caller's records that still say an outcome is not known (what unresolvedOutcomes reads), as one union. */
export const UNRESOLVED_TABLES: readonly ClaimTable[] = [
  { table: 'effect_intents', key: ['key', "'intent PENDING'"], where: "$state = 'PENDING'", format: '{0} ({1})' },
  { table: 'effect_outcomes', key: ['key', "'outcome UNKNOWN'"], where: "$state = 'UNKNOWN'" },
];

/** What a provider claim's tables are called: the provider's ledger and the producer's events. */
export interface ProviderTableNames {
  /** The provider's operations, as the export of its ledger a team would query (`carrier_pickups`). */
  readonly ledger: string;
  /** The producer's committed facts, as its outbox of events (`pickup_requests`). */
  readonly facts: string;
  /** The facts' payload fields and their types, the effect key's among them (all text unless given). */
  readonly columns?: Readonly<Record<string, SqlType>>;
}

/**
 * Where a provider claim's effect and facts live: the provider's ledger keyed by the request's
 * fields (the operation's intent), the producer's events keyed by the same fields, the caller's
 * outcome of a different intent accepted under a key the provider first bound to another, and
 * the caller's records that still say PENDING or UNKNOWN. A key of several fields is written
 * with `/` between them, as the caller writes its effect key.
 */
export function providerTables(fields: readonly string[], names: ProviderTableNames): ClaimTables {
  const columns: Record<string, SqlType> = { event_id: 'text', ...Object.fromEntries(fields.map((f) => [f, 'text' as const])), ...names.columns };
  const format = fields.map((_, i) => `{${i}}`).join('/');
  return {
    effect: { table: names.ledger, key: fields, format },
    source: { table: names.facts, key: fields, format },
    conflicts: {
      table: 'effect_outcomes',
      key: ['key', 'intent'],
      where: `$state = 'SUCCEEDED' AND $intent <> (SELECT p.intent FROM ${names.ledger} p WHERE p.idempotency_key = $key ORDER BY p.seq LIMIT 1)`,
      format: '{0} ({1})',
    },
    unresolved: UNRESOLVED_TABLES,
    views: [ledgerView(names.ledger, fields, columns), publishedView(names.facts, columns)],
  };
}

/** A claim whose outcomes are the provider's operations and whose facts are the producer's. */
export function providerClaim(
  fields: readonly string[],
  c: Omit<Claim, 'outcomes' | 'facts' | 'key'> & Partial<Pick<Claim, 'key'>>,
  names: ProviderTableNames = PROVIDER_PIPELINE.claimTables,
): Claim {
  return {
    key: fields,
    tables: providerTables(fields, names),
    ...c,
    outcomes: providerOutcomes(fields),
    facts: publishedKeys(fields),
    ...(c.differentIntent === undefined ? {} : { conflicts: keyConflicts() }),
    wiring: (design) => providerKeyProblems(fields, design),
  };
}

/**
 * The fields a provider claim keys on must be in the intent every caller of the provider sends
 * (the operation's key is read back from it) and in the publisher's records (the facts' key is):
 * a field missing from either would give every operation, or every fact, the empty key.
 */
function providerKeyProblems(fields: readonly string[], design: DesignIndex): string[] {
  const problems: string[] = [];
  const said = new Set<string>();
  for (const c of design.components) {
    if (c.machine.id !== 'caller' || (c.input as unknown as CallerInput).provider !== 'provider') continue;
    const intent = intentFieldsOf(c.input as unknown as CallerInput, design);
    if (intent === undefined) continue;
    for (const f of fields.filter((x) => !intent.includes(x))) {
      said.add(f);
      problems.push(`it is keyed on ${f}, which the intent ${c.name} sends the provider does not carry${didYouMean(f, intent)}; the intent's fields: ${intent.join(', ') || 'none'}`);
    }
  }
  // The facts are keyed from the publisher's records; a field the intent lacks is said once.
  const publisher = design.component('publisher');
  const broker = String((publisher?.input as { broker?: unknown } | undefined)?.broker ?? 'broker');
  if (publisher !== undefined) problems.push(...missingFields(design, broker, 'its key field', fields.filter((f) => !said.has(f))));
  return problems;
}

/** How a caller's local records read in evidence: `o-1 SUCCEEDED op-2`. */
const CALLER_ROWS = {
  effect_intents: (r: Readonly<Record<string, unknown>>) => `${r['key']} ${r['state']}`,
  effect_outcomes: (r: Readonly<Record<string, unknown>>) => `${r['key']} ${r['state']}${r['op_id'] ? ` ${r['op_id']}` : ''}`,
};

const publisherNotes: Record<string, WindowNote> = {
  pacing: n('publisher (the next record is still unhanded)'),
  afterPublishSend: n('publisher on timeout (same event_id)'),
  afterBrokerAccept: n('publisher after restart (same event_id again)'),
  afterProgress: n('nobody: at most once does not resend'),
  idle: n('nobody needed'),
};

function callerNotes(c: CallerInput, p: Omit<ProviderInput, 'durable'>): Record<string, WindowNote> {
  const redelivery = 'broker redelivery from the committed offset';
  const ambiguousOwner = c.recordIntent && c.statusLookup ? `${redelivery}; the PENDING intent makes it look up before calling` : `${redelivery}; it calls again blind`;
  return {
    connecting: n('the caller itself, subscribing again after its restart'),
    idle: n(redelivery),
    received: n(redelivery),
    checkingLocalOutcome: n(redelivery),
    recordingIntent: n(redelivery),
    beforeExternalCall: n(redelivery),
    // A crash takes the caller's timeout with it: the record comes back from the broker instead.
    awaitingExternalResponse: n(
      `${redelivery} after a crash (${c.recordIntent && c.statusLookup ? 'the PENDING intent makes it look up before calling' : 'it calls again blind'}); while the caller lives, its timeout, then ${c.statusLookup ? 'a status lookup' : 'a blind retry'}`,
    ),
    checkingStatus: n('caller timeout, then another call under the key'),
    afterExternalResponse: n(ambiguousOwner),
    committingOutcome: n(`${redelivery} (the commit may or may not have landed)`),
    afterLocalCommit: n(`${redelivery} (the local outcome suppresses the repeat)`),
    duplicateSeen: n(redelivery),
  };
}

function providerNotes(c: CallerInput, p: Omit<ProviderInput, 'durable'>, reconciled: boolean): Record<string, WindowNote> {
  const keyed = c.sendKey && p.idempotency !== 'none';
  // With a reconciler sweeping, either may be first to ask after the lost answer, so the note names neither.
  const who = reconciled ? 'a timeout or the next sweep, whichever comes first' : 'caller timeout';
  return {
    serving: n('caller timeout (the queued call is lost)'),
    afterExternalEffect: n(keyed ? `${who}; the retry under the same key is replayed while the key is retained` : `${who}; the retry creates a new operation`),
  };
}
