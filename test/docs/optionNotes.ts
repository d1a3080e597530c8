// The prose of the options reference (docs/options.md): for every option of every part, what it
// changes and what happens without it, in the reader's words. The option paths, whether each is
// required and the values it takes are not written here: test/docs/optionsReference.ts reads
// them from the schemas that validate the options, and refuses a note for an option no schema
// has, or an option with no note. `values` is given only where a schema cannot name what a value
// means (a component's name, a function); an enumeration's values always come from the schema.

/** One option's row: what happens without it (an optional option), and what it changes. */
export interface OptionNote {
  /** What a value is, where the schema cannot say (`component name`, `(size) => Payload[]`). */
  readonly values?: string;
  /** What happens when the option is not given: the default, or "none". */
  readonly default?: string;
  readonly text: string;
}

/** A part's section: the schemas it documents (by `faultline schema` name), its introduction, one note per option path. */
export interface SectionNotes {
  readonly title: string;
  /** The first is the section's own; a later one adds only the paths the first lacks (consumerGroup's `consumers`). */
  readonly schemas: readonly string[];
  readonly intro: string;
  /** By option path (`relay.workers`, `tables.*.ttl`); one note may cover several paths joined by `, `. */
  readonly options: Readonly<Record<string, OptionNote>>;
  readonly after?: string;
}

export interface GroupNotes {
  readonly title: string;
  readonly intro: string;
  readonly sections: readonly SectionNotes[];
}

export const PAGE_INTRO = `
# Parts and options

Every part a design is drawn from, and every option each takes: the component factories
(\`faultline/models/<file>.js\`), the presets that draw a whole design from a few options
(\`faultline/models/designs/<file>.js\`), the world's settings and a scenario's own fields.
[Composing a design](composing.md) says how the parts fit together.

Each table is generated from the schema that checks the options when a design is drawn (the one
\`npx faultline schema <name>\` prints), so the paths, whether an option is required and the
values it takes are the code's own; a test fails when this page falls behind it, and
\`npm run docs:options\` writes it again. Values: a *duration* is a
string with its unit (\`'250ms'\`, \`'30s'\`, \`'15m'\`, \`'24h'\`, \`'7d'\`, \`'3 ticks'\`), never a
bare number; \`a.b\` is option \`b\` inside object \`a\`, and \`a.*.b\` is \`b\` in each entry of
the record \`a\` (\`tables.*.ttl\`: the \`ttl\` of any table). A default written in ticks does not
scale with the scenario's \`tick\` ([Time](composing.md#time-ticks-and-durations)).
`;

export const GROUPS: readonly GroupNotes[] = [
  {
    title: 'Component factories',
    intro: "Each machine in `models/` is one component. Its context keeps under `durable` what survives a crash; the rest is volatile and is lost when a process crashes. Processes (`process: true`) crash at failure windows, their resting states; the servers (`database`, `broker`) crash only where a design sets their `crashes` option, at windows their machines declare inside a step (a commit made, its reply not yet sent); the `client` never crashes. Each module exports the machine (`brokerMachine`, …) and a factory (`broker({...})`) that checks its options, turns durations into ticks and names the component.",
    sections: [
      {
        title: "Every component factory",
        schemas: ["factory"],
        intro: "Every factory below takes these besides its own options; the tables below leave them out.",
        options: {
          name: { default: "the factory's name (`relay`, `broker`, …)", text: "The component's name; its windows (`<name>.<state>`) and message points are named after it, and claims read it by this name." },
          restartAfter: { default: "the world's `restartAfter` (10 ticks)", text: "How long this component stays down after a crash." },
          notes: { values: "`{ [state]: { retryOwner, repairQuery } }`", default: "none", text: "What the report says about each failure window: who retries from there, and the query that finds the damage." },
        },
      },
      {
        title: "broker",
        schemas: ["broker"],
        intro: "`broker(options = {})`: a partitioned log. Records are keyed by aggregate id, so one aggregate's records keep their order; consumer groups commit offsets; a partition has one record in flight to the member that holds it at a time, the next sent once that one is committed (so a single fault cannot reorder what one consumer receives from a partition; two can, such as a duplicated delivery held back); an uncommitted delivery is sent again after the redelivery timeout; a group's partitions are shared among its live members (`groupAssignment`). Durable: the partitions' logs and each group's committed offsets. Volatile: consumer sessions, deliveries in flight, the group assignment. Not a process, but it can crash at its own windows where `crashes` is set: `broker.beforeAppend` (a record received, not yet in the log: it is lost, and its producer, with no ack, sends it again) and `broker.afterAppend` (in the log, the ack not yet sent: the producer sends it again and the log holds it twice unless `producerDedup` recognises the repeat). Consumers are told of the crash as of a dropped connection and subscribe again; deliveries not yet committed come again from the committed offset.",
        options: {
        partitions: { default: "1", text: "Partitions of the topic." },
        redelivery: { default: "30 ticks", text: "How long a delivery may go uncommitted before it is sent again; `never`: only when its member reconnects or its partition moves, never on a timer." },
        retention: { default: "for ever", text: "Records older than this are gone." },
        producerDedup: { default: "`false`", text: "Which repeats of a record are not appended again. `true`: the broker's duplicate detection, a record whose event_id the partition holds, whoever sends it (a message-id check, as Azure Service Bus and NATS JetStream offer). `'session'`: Kafka's idempotent producer, only a retry by the same producer since it last started; a relay that restarts, or a second one, appends the record again (`outbox-log-idempotent-producer`). The model has no sequence numbers: a producer's send of an event_id it already sent in the same session is taken for its retry, where Kafka would append one the application sent anew. The broker counts a producer's sessions by the crash notices it hears, so one that was down when a producer crashed takes that producer's next sends for the old session's." },
        commits: { default: "`naive`", text: "A member's commit for a partition it no longer owns is accepted (and may move the offset backwards), or refused by its generation, as Kafka's group coordinator does." },
        crashes: { default: "`false`", text: "The broker itself crashes and restarts (after its restart delay) at `beforeAppend` and `afterAppend`; the log and committed offsets survive." },
        syncBeforeAck: { default: "`true`", text: "An append is on disk before its ack. With `false` the ack goes out at once and the record is synced `syncAfter` later: a crash is then a power failure of the broker's host, which loses every record not yet synced, acknowledged or not, and `broker.beforeSync` (the flush due, not yet done) is one more window." },
        syncAfter: { default: "5 ticks", text: "With `syncBeforeAck: false`, how long after an append its record is synced (a flush interval); refused without it." },
        restorable: { default: "`false`", text: "A `restore` fault can set every group's committed offsets back to their snapshot, taken before the workload began: the broker restarts with the log it had and no offsets committed, so every group reads the retained log again from its start (an operator restoring old offsets, or resetting a group to the earliest offset)." },
        },
      },
      {
        title: "caller",
        schemas: ["caller"],
        intro: "`caller(options)`: a consumer whose effect is a call to an external API. It derives an effect key from the record, may record its intent, calls with the key, records the provider's operation id, and on a timeout may ask by key before calling again. Durable: its database's `effect_intents` and `effect_outcomes`. Volatile: its queue, the delivery and the response in hand. A broker restart (a crash or a restore of the broker) ends its session as a dropped connection does: it drops the record in hand and subscribes again.",
        options: {
        broker: { values: "component name", default: "`broker`", text: "Where it consumes from." },
        group: { text: "Its consumer group." },
        db: { values: "component name", default: "`callerDb`", text: "Its local database: declare its tables as `CALLER_TABLES` (from `faultline/models/caller.js`), `effect_outcomes` and `effect_intents`, each keyed by `key` and `intent`, with the columns `key`, `intent`, `state` (SUCCEEDED, UNKNOWN, CONFLICT or GATED; an intent is PENDING until its call ends) and `op_id` (the provider's operation, or null)." },
        provider: { values: "component name", default: "`provider`", text: "The API it calls." },
        effectKey: { values: "list of payload fields", text: "The fields of the effect key." },
        intentFields: { values: "list of payload fields", default: "every field but `event_id`", text: "The fields of the intent the key is bound to." },
        sendKey: { text: "Send the effect key as the idempotency key." },
        statusLookup: { text: "Ask by key before calling again; needs `sendKey: true`, and is refused without it." },
        recordIntent: { text: "Record the intent PENDING before the call." },
        timeout: { default: "20 ticks", text: "How long it waits for the provider or its database." },
        maxAttempts: { default: "3", text: "Calls per delivery before the outcome is recorded UNKNOWN." },
        retry: { default: "no schedule: `maxAttempts` calls, each as soon as the last timed out", text: "Retry an unanswered call with exponential backoff until a deadline, in place of `maxAttempts` (refused beside it); the wait is spent in `caller.beforeExternalCall`." },
        sideEffects: { default: "`enabled`", text: "`gated` never calls the provider and records the outcome GATED: a rebuild in its own namespace." },
        },
      },
      {
        title: "cdcConnector",
        schemas: ["cdcConnector"],
        intro: "`cdcConnector(options = {})` (`models/cdcConnector.ts`): a change-data-capture connector as the outbox's relay, named `connector`. It reads the outbox table's committed changes in commit order from its own position (the database's `tail` of a table kept with `history`, standing for logical decoding), publishes each, and keeps its position in an offset store of its own. Durable: the offset. Volatile: the changes read and not yet streamed.",
        options: {
        db: { values: "component name", default: "`ordersDb`", text: "The database whose outbox it streams." },
        broker: { values: "component name", default: "`broker`", text: "Where it publishes." },
        table: { default: "`outbox`", text: "The streamed table." },
        offsetCommit: { default: "`afterAck`", text: "The offset moves past a change once the broker acknowledged it (a crash in between streams it again), or before it is sent (a crash in between never streams it)." },
        poll: { default: "8 ticks", text: "Its wait between reads when nothing new was committed." },
        timeout: { default: "20 ticks", text: "How long it waits for a reply before reading or sending again." },
        },
      },
      {
        title: "client",
        schemas: ["client"],
        intro: "`client(options)`: a user's device or an upstream service sending commands one after another, retrying on a timeout or failure as configured. Durable: the next command, every reply it got, the intents it attempted. Not a process.",
        options: {
        target: { values: "component name", default: "`source`", text: "The service it sends commands to." },
        commands: { values: "`(size) => Command[]`", text: "The commands, each with its intent, aggregate, version, status and event type: `{ intent, aggregate_id, version, status, event_type, data? }`." },
        retry: { default: "`none`", text: "No retry, a retry with the same key, or a retry with a new key." },
        keyed: { default: "`false`", text: "Commands carry an idempotency key." },
        timeout: { default: "60 ticks", text: "How long it waits for a reply." },
        maxAttempts: { default: "3", text: "Attempts per command when it retries." },
        untilAnswered: { default: "`false`", text: "Keep asking past `maxAttempts` until a definitive answer." },
        gap: { default: "5 ticks", text: "The wait between commands." },
        },
      },
      {
        title: "commitThenCall",
        schemas: ["commitThenCall"],
        intro: "`commitThenCall(options)` (`models/commitThenCall.ts`): a service that commits a row and then calls an external API, named `service`: for each delivery it inserts its row (`insert … on conflict do nothing`, status REQUESTED) and reads it back in one transaction, commits, then calls the provider, and records the answer in the row (SUCCEEDED with the operation id, CONFLICT, or UNKNOWN once its attempts are spent) before it acknowledges. The moment between the commit and the call is its window `afterRowCommit`. Durable: nothing of its own (its rows). Volatile: its queue, the delivery and the answer in hand. Declare its table as `commitThenCallTable(effectKey)`.",
        options: {
        broker: { values: "component name", default: "`broker`", text: "Where it consumes from." },
        group: { text: "Its consumer group." },
        db: { values: "component name", default: "`serviceDb`", text: "Its database." },
        table: { text: "The row's table, keyed by the effect key's fields, with `intent`, `status` and `op_id`." },
        provider: { values: "component name", default: "`provider`", text: "The API it calls." },
        effectKey: { values: "list of payload fields", text: "The fields of the row's key and of the effect key." },
        intentFields: { values: "list of payload fields", default: "every field but `event_id`", text: "The fields of the intent the key is bound to." },
        sendKey: { text: "Send the effect key as the idempotency key." },
        statusLookup: { text: "On a timeout, or for a row found unfinished, ask by key before calling again; needs `sendKey: true`, and is refused without it." },
        existingRow: { text: "A delivery whose row was already there and is not SUCCEEDED calls again (asking first when it can), or takes the row as proof the call was made and acknowledges: the guard that loses the call a crash after the commit interrupts." },
        timeout: { default: "20 ticks", text: "How long it waits for the provider or its database." },
        maxAttempts: { default: "3", text: "Calls per delivery before the outcome is recorded UNKNOWN." },
        retry: { default: "no schedule: `maxAttempts` calls, each as soon as the last timed out", text: "Retry with exponential backoff until a deadline, in place of `maxAttempts`: `retry: { backoff: '1m', factor: 2, cap: '6h', until: '2d' }`." },
        },
      },
      {
        title: "consumer",
        schemas: ["consumer", "consumerGroup"],
        intro: "`consumer(options)`: one broker subscription, one local effect per delivered record, with the inbox, handler, ordering, acknowledgement and retry policy its options choose; its machine has only the states those options can reach. `consumerGroup({ consumers, ...options })` draws `consumers` members named `<name>1`, `<name>2`, … in one group. Every consumer says which group it joins (`subscribes`), so where two or more join one group at a broker, drawn together or one by one, the `rebalance` fault strikes the broker's deliveries to them. Durable: nothing of its own (its state is in its databases). Volatile: received deliveries, the record in hand, its handler attempts, open transactions and a local cache.",
        options: {
        broker: { values: "component name", default: "`broker`", text: "The topic it reads (a retry topic's broker for `reads: 'retries'`)." },
        group: { text: "Its consumer group." },
        consumerName: { default: "the group", text: "The inbox namespace: whose history the inbox records." },
        db: { values: "component name", text: "The database of its effect." },
        inboxDb: { values: "component name", default: "`db`", text: "Where a `separateTx` inbox lives." },
        inbox: { text: "The consumed event_id in the effect's transaction, in a transaction of its own first, in process memory (emptied by a crash, one per member), or nowhere." },
        "effect.op": { text: "Create a row (a repeat is stopped only by a unique key) or set one." },
        "effect.table": { text: "The effect's table." },
        "effect.columns": { values: "`{ [column]: field }`, each a payload field's name, `{ const: value }` or `{ now: true }`", text: "Each column from a payload field, a constant, or the tick the handler ran." },
        handler: { default: "`atomic`", text: "One insert, or a lookup then an insert (inserts only)." },
        versionCheck: { default: "`false`", text: "The upsert only moves a row's version forwards: it compares the rows' `version` column (`WHERE stored.version < new.version`), so the effect's row must carry one (an insert, or an effect with no `version` column, is refused)." },
        ack: { default: "`afterCommit`", text: "Commit the offset after the effect, or before it." },
        timeout: { default: "20 ticks", text: "How long it waits for its database before taking the record again." },
        retry: { default: "no policy: the handler never fails", text: "What follows a failure of the handler: retried in place or through a retry topic, then dead-lettered." },
        reads: { default: "`records`", text: "`retries`: the consumer of a retry topic, which waits until each record is due." },
        consumers: { text: "`consumerGroup` only: members of the group, named `<name>1`, `<name>2`, …" },
        },
      },
      {
        title: "database",
        schemas: ["database"],
        intro: "`database({ name, tables, rows })` (`models/designs/databaseComponent.ts`), or `databaseComponent(name, tables, rows?)` with durations already in ticks (`ttlTicks`): a relational server at READ COMMITTED with primary and unique keys, row locks, `insert … on conflict do nothing`, version-checked upserts and rows that expire (a statement that takes the key of an expired row again, as a redelivered event's inbox insert does, says so in its result as `lapsed`, and the trace and the diagrams show it as a note on the database: `inbox row past its time to live (committed at t=18, kept 70 ticks) event=evt-partner-1`), and tables of bounded size (`capacity`: a commit that leaves more rows evicts the oldest, as a size-capped dedup store or cache drops its oldest key, noted as `inbox row evicted (committed at t=57, the table keeps 1) event=evt-o-1-v1`). Each committed row a transaction deletes is noted too at its commit (`outbox row deleted (committed at t=13) event=evt-o-1-v1`), since a sweep or a truncation names no key. Durable: committed rows (and their versions, for `history` tables). Volatile: open transactions, their locks and waiting statements, which end when the owner's connection drops; an open transaction with no statement for 100 ticks is rolled back (`idleTxTicks` in the machine's input), which the trace and the diagrams show as a note on the database naming the transaction and the rows it had written. Not a process, but it can crash at its own windows where `crashes` is set: `<name>.afterStatement` (a statement has run in an open transaction, its result not yet sent) and `<name>.afterCommit` (a transaction that wrote has committed, the reply not yet sent). Committed rows survive; every open transaction aborts, waiting statements and the step's replies are gone. A client learns of it by its own timeout, as of a lost reply, and the restarted database answers nothing on a connection the crash broke, so a commit of a transaction it rolled back never reports success. Its links suffer only `lose` and `delay`.",
        options: {
        name: { text: "The database's component name." },
        tables: { values: "`{ [table]: table options }`", text: "Its tables, by name." },
        "tables.*.key": { values: "list of columns", text: "The primary key." },
        "tables.*.unique": { values: "list of column lists", default: "none", text: "Further unique keys." },
        "tables.*.ttl": { default: "for ever", text: "Rows older than this are gone (a dedup record past its horizon)." },
        "tables.*.capacity": { values: "whole number ≥ 1", default: "unbounded", text: "At most this many rows: a commit that leaves more evicts the oldest (by first commit), as a dedup store of bounded size or a cache drops its oldest key. Each eviction is a note on the database in the trace and the diagrams. Rows past their `ttl` take no room." },
        "tables.*.autoId": { default: "`false`", text: "The database assigns the single key column, so nothing stops a repeat." },
        "tables.*.history": { default: "`false`", text: "Keep every committed version of every row, so a checker can see one move backwards." },
        rows: { values: "`{ [table]: (row) => string }`", default: "the key columns joined by `/`", text: "How each table's rows read in evidence." },
        crashes: { default: "`false`", text: "The database itself crashes and restarts (after its restart delay) at `afterStatement` and `afterCommit`." },
        restorable: { default: "`false`", text: "A `restore` fault can set it back to its backup, the one taken before the workload began: every table empty again, and its sequence back at its start." },
        backups: { default: "none", text: "Periodic backups kept in its durable state: one every `every`, the first at the start, before the workload; a `restore` fault sets it back to the newest one at least `restoreAge` old at the moment of the restore (the one before the workload when none is that old). Makes it restorable." },
        restoreWith: { values: "list of component names", default: "none", text: "Components the same `restore` fault sets back at the same moment, each to its own snapshot (each must be restorable): `['broker']` restores the data with the consumer offsets it matches, as one fault rather than a pair. Needs `restorable` or `backups`." },
        },
      },
      {
        title: "database backups",
        schemas: ["backup"],
        intro: "A database's `backups` option (`BackupOptions`, `models/databaseBackups.ts`): periodic backups kept in its durable state, and which one a `restore` fault goes back to. `database({ name: 'callerDb', tables, backups: { every: '1h', restoreAge: '6h' } })` restores to a backup at least six hours old, as an operator restoring last night's backup would.",
        options: {
          every: { text: "How often a backup is taken, the first at the start, before the workload (at least one tick)." },
          restoreAge: { text: "A restore picks the newest backup at least this old at the moment of the restore, or the one before the workload when none is." },
        },
      },
      {
        title: "device",
        schemas: ["device"],
        intro: "`device(options)`: a device uploading planned facts to its partition of an event log (used by `streamPipeline` and `reprocessing`, which give it `log`, `partition` and `facts`). Each fact occurs at its planned tick and is stamped with the device's clock; uploads go one at a time, resent until acknowledged (so the log may hold a fact twice), and an end marker closes the partition. A crash leaves its partition idle until the restart, after which it uploads what occurred meanwhile with the original event times. Windows: `starting`, `waiting`, `uploading`, `done`.",
        options: {
        timeout: { default: "6 ticks", text: "How long it waits for the log's acknowledgement before uploading again." },
        skew: { default: "none", text: "How far each `skew` fault moves its clock ahead; two skews move it twice as far (no skew strikes it without this)." },
        },
        after: "The other stream machines take their input from the presets rather than options of their own: `eventLog` (partitions read by position; appends stamped with their ingestion tick), `windowedAggregator` (the event-time operator; its behaviour is the `streamPipeline` options), `resultSink` (`external`, `idempotent` or `transactional`, also keeping review, drop and retraction records, and standing for the mail gateway and payment provider of reprocessing) and `promoter` (the reprocessing cutover).",
      },
      {
        title: "operator",
        schemas: ["operator"],
        intro: "`operator(options)`: a rebuild runbook: after a while, optionally truncate a read model's tables, then rewind a consumer group's offsets so the broker delivers the log again. The truncation and the rewind are each sent again until confirmed (the broker confirms a rewind as a consumer-group tool prints the offsets it set), so a lost request does not leave the read model empty; a rewind that landed and is sent again rewinds the group once more. Durable: the runbook's checklist (truncated, reset), so a crash resumes it.",
        options: {
        broker: { values: "component name", default: "`broker`", text: "The broker whose group it rewinds." },
        group: { text: "The consumer group rewound." },
        offset: { default: "0", text: "The offset every partition of the group is set to." },
        after: { text: "How long after (re)start the runbook begins." },
        "truncate.db": { values: "component name", text: "With `truncate` (no truncation without it): the database of the read model emptied first." },
        "truncate.tables": { values: "list of table names", text: "The read-model tables emptied first." },
        timeout: { default: "20 ticks", text: "How long it waits for a reply." },
        },
      },
      {
        title: "orchestrator",
        schemas: ["orchestrator"],
        intro: "`orchestrator(options)`: a gift purchase run as a saga: create a pending order, authorise, reserve, capture, confirm the order, email; a refused step runs the compensations of the steps done, newest first. It sends each action to the participant named for it, so a design names its three participants exactly `payments` (authorise, capture, and their undoing: void, refund), `inventory` (reserve, release) and `notifications` (email). Durable: the saga log (order state, steps done and undone). Volatile: the request in flight, sent again under the same key after a restart.",
        options: {
        purchases: { values: "`(size) => GiftPurchase[]`", text: "The purchases, run one after another, each `{ id, captureDeclined }`. The orchestrator itself does not read `captureDeclined`: a decline is the payments participant's (`declines: (size) => ['g-2:capture']`), which the `giftSaga` preset sets from that field. With parts of your own, name it in the participant's `declines`, or no purchase is ever declined and no compensation runs." },
        emailStep: { text: "Where the email, which cannot be undone, comes in the saga." },
        timeout: { default: "20 ticks", text: "How long it waits for a participant's reply." },
        },
      },
      {
        title: "outboxCleaner",
        schemas: ["outboxCleaner"],
        intro: "`outboxCleaner(options)` (`models/outboxCleaner.ts`): the outbox's cleanup job, named `cleaner`; every `every` it deletes, in one statement, the outbox rows inserted longer ago than `retention`. Durable: nothing of its own. Volatile: the sweep in hand.",
        options: {
        db: { values: "component name", default: "`ordersDb`", text: "The database holding the outbox." },
        table: { default: "`outbox`", text: "The outbox table." },
        retention: { text: "Rows inserted longer ago than this are deleted." },
        every: { default: "10 ticks", text: "How often it sweeps." },
        rows: { default: "`published`", text: "Only rows already published (the usual rule), or every row of that age, which also deletes a row a relay that is down or behind has not yet published." },
        timeout: { default: "20 ticks", text: "How long it waits for the delete's reply." },
        },
      },
      {
        title: "participant",
        schemas: ["participant"],
        intro: "`participant(options)`: a saga participant that performs actions and their compensations and records each operation before it answers. Durable: its operations. Volatile: its queue of requests.",
        options: {
        name: { text: "`payments`, `inventory` or `notifications` for the orchestrator." },
        idempotent: { text: "A repeated (saga, action) gets the recorded operation instead of a new one." },
        declines: { values: "`(size) => string[]`", default: "none", text: "The requests it refuses, each as `<saga>:<action>`: the purchase's id and the action, so `['g-2:capture']` declines the capture of purchase `g-2`. The actions are `authorise`, `void`, `capture`, `refund` (payments), `reserve`, `release` (inventory) and `email` (notifications)." },
        },
      },
      {
        title: "partner",
        schemas: ["partner"],
        intro: "`partner(options)`: a partner that publishes each of its facts (resending until acknowledged), waits, and publishes every fact again with the same event_id. Durable: which facts were acknowledged in each round and when the redelivery is due, so a restart waits only what is left.",
        options: {
        broker: { values: "component name", default: "`broker`", text: "Where it publishes." },
        facts: { values: "`(size) => Payload[]`", text: "Its facts." },
        redeliverAfter: { text: "How long after the first round it sends every fact again." },
        timeout: { default: "20 ticks", text: "How long it waits for the broker's acknowledgement." },
        },
      },
      {
        title: "processor",
        schemas: [],
        intro: "`processorComponent(input, name = 'processor')` (`models/processor.ts`): a checkpointed stream operator, the model behind `faultline calc checkpoint`; a crash replays everything since the last completed checkpoint. Its input is in ticks and counts, with no option schema: `eventsPerTick` (records arriving a tick, required), `recoveryEventsPerTick` (records it can process a tick, default twice `eventsPerTick`), `checkpointEveryTicks` (required), `totalTicks` (when the source stops growing, required). Durable: the last completed checkpoint and the counts of what it emitted downstream. Volatile: the position and state reached since that checkpoint.",
        options: {

        },
      },
      {
        title: "provider",
        schemas: ["provider"],
        intro: "`provider(options)`: an external API on the far side of the caller's transaction. Durable: its operations and key records. Volatile: its queue of calls. It is a process: a crash in `provider.afterExternalEffect` leaves the caller with an ambiguous timeout.",
        options: {
        idempotency: { text: "Every call new work; a known key returns the recorded operation; or returns it only for the same intent and refuses another." },
        statusLookup: { text: "Whether a caller can ask for the operation under a key." },
        keyRetention: { default: "for ever", text: "How long it remembers a key (and can look it up). A call under a key past it is new work, which the trace and the diagrams note on the provider (`idempotency key past its retention`)." },
        },
      },
      {
        title: "publisher",
        schemas: ["publisher"],
        intro: "`publisher(options)`: a producer whose facts are already committed with their intent to publish (an outbox and its relay folded into one process). Durable: its facts and how many are handed over.",
        options: {
        broker: { values: "component name", default: "`broker`", text: "Where it publishes." },
        records: { values: "`(size) => Payload[]`", text: "Its committed facts, in publication order: each a flat record of fields, `event_id` among them." },
        keyField: { text: "The payload field used as the broker key." },
        delivery: { default: "`atLeastOnce`", text: "Wait for the ack and resend the same event_id, or record progress first and never wait (a lost record stays lost)." },
        timeout: { default: "20 ticks", text: "How long it waits for the broker's acknowledgement." },
        },
      },
      {
        title: "reconciler",
        schemas: ["reconciler"],
        intro: "`reconciler(options)`: resolves the caller's PENDING intents and UNKNOWN outcomes with the provider: it asks by key, calls again under the same key only when nothing exists, and records the terminal outcome. Durable: nothing of its own; the next sweep finds the rows still unresolved.",
        options: {
        db: { values: "component name", default: "`callerDb`", text: "The caller's database it sweeps." },
        provider: { values: "component name", default: "`provider`", text: "The API it asks." },
        recordIntent: { text: "Whether the caller records intents, so there are PENDING rows to sweep." },
        sweep: { default: "`pendingAndUnknown`", text: "Which rows it reads." },
        poll: { default: "15 ticks", text: "Its wait between sweeps." },
        timeout: { default: "20 ticks", text: "How long it waits for the provider or the database." },
        },
      },
      {
        title: "relay",
        schemas: ["relay"],
        intro: "`relay(options = {})`: the outbox relay; it polls committed outbox rows, publishes each and records that it did. Durable: nothing of its own (progress is the rows' `published` flag: it picks the rows whose `published` is `false`, exactly, so a row written without the column is never published, and a design whose rows carry none is refused at load; see [What the records carry](composing.md#what-the-records-carry)). Volatile: the batch in hand (with `claim: 'skipLocked'`, also the round's open transaction, which the database rolls back when the worker's connection drops).",
        options: {
        db: { values: "component name", default: "`ordersDb`", text: "The database holding the outbox." },
        broker: { values: "component name", default: "`broker`", text: "Where it publishes." },
        table: { default: "`outbox`", text: "The outbox table." },
        mark: { default: "`afterSend`", text: "Record progress after the broker accepted (at least once) or before sending (at most once)." },
        concurrency: { default: "`perAggregate`", text: "One publish in flight, or a batch at once." },
        poll: { default: "8 ticks", text: "Its wait between polls when nothing is pending." },
        timeout: { default: "20 ticks", text: "How long it waits for a reply." },
        claim: { default: "`read`", text: "A plain select per poll, or one transaction per round: claim pending rows `FOR UPDATE SKIP LOCKED`, publish them, mark them, commit. Another worker's claim passes over the rows a round holds; a crash or a lost commit rolls the round back and the next claimant publishes them again. `mark: 'beforeSend'` cannot go with it." },
        heads: { default: "`false`", text: "With `skipLocked`: only the earliest pending row of each aggregate is claimed (`AND NOT EXISTS` an earlier pending row of it), so no worker skips past a held version." },
        batch: { default: "no limit", text: "With `skipLocked`: the claim's `LIMIT`." },
        },
      },
      {
        title: "source",
        schemas: ["source"],
        intro: "`source(options)`: the order service: takes a command, changes an aggregate in its database and makes the fact known. Durable: nothing of its own (its rows). Volatile: the command in hand, and the commands that arrived while it was busy, which it takes in arrival order once it is idle (a crash loses them; their clients ask again).",
        options: {
        design: { text: "As `orderPipeline`'s `design`." },
        db: { values: "component name", default: "`ordersDb`", text: "Its database." },
        broker: { values: "component name", default: "`broker`", text: "Where a dual write publishes." },
        aggregateTable: { default: "`orders`", text: "The aggregate's table." },
        outboxTable: { default: "`outbox`", text: "The outbox table." },
        checkoutKeys: { default: "`false`", text: "As `orderPipeline`'s `checkoutKeys`." },
        timeout: { default: "20 ticks", text: "How long it waits for its database or the broker." },
        },
      },
      {
        title: "retryPolicy",
        schemas: ["retry"],
        intro: "`consumer`'s `retry` option (`models/retryPolicy.ts`), not a machine: what follows a failure of the handler. A payload with `poison: true` fails every attempt; `failures: N` fails the first N.",
        options: {
        mode: { text: "Retry inside the handler, holding every partition of the consumer, or hand the record to a retry topic and move on." },
        backoff: { text: "The wait before each retry; as many retries as waits (`SEED_BACKOFF` is 1, 2, 4, … 32 s, then 60 s twice)." },
        topic: { values: "component name", default: "none (required for `retryTopic`)", text: "The retry topic's broker." },
        parkKeys: { default: "`false`", text: "Later records of a failed record's key follow it through the retry topic." },
        "deadLetter.topic": { values: "component name", text: "With `deadLetter` (without it, a record is retried for ever at the last wait): the dead-letter topic's broker, where a record goes after its last retry." },
        "deadLetter.owner": { values: "non-empty string", text: "The team that owns the dead-letter topic." },
        },
      },
      {
        title: "callRetry",
        schemas: ["callRetry"],
        intro: "The `retry` option of `caller` (and of `providerPipeline`'s `caller`) (`models/callRetry.ts`), not a machine: how an unanswered call is retried. The first retry waits `backoff`, each later one `factor` times longer, never longer than `cap`; the last retry is the one whose waiting so far still falls within `until`, and after it the outcome is recorded UNKNOWN (for a reconciler, or a person, to resolve). The waits are worked out when the design is drawn by the arithmetic of `faultline calc retry --base … --factor … --cap … --until …`, which prints the same schedule (`retry: { backoff: '1m', factor: 2, cap: '6h', until: '2d' }` is 15 retries, the last after 1 d 20 h 31 m of waiting), and each wait is rounded up to a whole tick. Only the waiting counts towards `until`; each attempt's own `timeout` comes on top.",
        options: {
        backoff: { text: "The wait before the first retry." },
        factor: { default: "2", text: "How much longer each wait is than the one before." },
        cap: { default: "no cap below `until`", text: "The longest wait." },
        until: { text: "The deadline: no retry whose waiting so far would pass it." },
        },
      },
      {
        title: "subscription and groupAssignment",
        schemas: [],
        intro: "Neither is a machine. `subscription.ts` is a broker subscription as every consuming machine sees it (the deliveries received and not yet processed, the subscribe and commit requests), so they agree on what counts as the same delivery. `groupAssignment.ts` is how the broker shares a group's partitions among its live members: round-robin in member-name order, recomputed when a member joins, leaves or crashes; a partition leaves a live owner only after it has committed the record it holds (as Kafka's cooperative protocol moves it), so only the `rebalance` fault, or an owner past the redelivery timeout, makes two members hold one record. Neither has options.",
        options: {

        },
      },
    ],
  },
  {
    title: 'Presets',
    intro: "A preset (`models/designs/<file>.ts`, imported as `faultline/models/designs/<file>.js`) draws a whole, common design from a few options, so a scenario's `build` can be one call: `build: orderPipeline({ design: 'outbox' })`. Each names its components and tables with defaults that fit together, exports them as constants for claims of your own (`ORDER_PIPELINE.tables.reservations`), and exports the claims that go with it. An option named after one of its parts (`relay`, `consumer`, `ordersDb`) takes that part's own factory options, less those the preset wires itself; the rows below list them by path (`relay.workers`). A preset cannot be given extra parts: a design with a part no preset has is drawn with `compose` ([Composing a design](composing.md)).",
    sections: [
      {
        title: "orderPipeline",
        schemas: ["orderPipeline"],
        intro: "`orderPipeline(options)` (`models/designs/orderPipeline.ts`), an order pipeline: a `client` sending commands to the order service `source` and its `ordersDb` (tables `orders`, `outbox`, `checkout_keys`), a `relay` (outbox design only), the `broker`, and the inventory `consumer` (group `inventory`, inbox namespace `inventory-reservation-v3`) writing to `inventoryDb` (plus `inboxDb` with a separate inbox). Claims to pair with it: `reservationClaim`, `requestedReservationClaim`, `checkoutClaim`, `projectionClaim`. A claim of your own names the pipeline's components and tables through `ORDER_PIPELINE.components` and `ORDER_PIPELINE.tables`. Each part takes its own factory's options, less those the pipeline wires: `orderPipeline({ design: 'outbox', consumer: { consumers: 2, inbox: 'localCache' }, inventoryDb: { tables: { inbox: { ttl: '7d' } } } })`.",
        options: {
        design: { text: "How the source makes a fact known: commit then publish, publish then commit, or an outbox row in the state's transaction that a relay publishes." },
        relay: { default: "", text: "The outbox's publisher: the `relay.*` rows below, and `relay.timeout`." },
        "relay.workers": { values: "whole number 1 to 8", default: "1", text: "Relay workers polling the one outbox, named `relay`, `relay2`, …; each takes the other `relay.*` options." },
        "relay.type": { default: "`polling`", text: "A polling publisher (`relay`), or a change-data-capture connector (`connector`, see `cdcConnector`) streaming the outbox's commit log; it takes `relay.offsetCommit`, `relay.poll` and `relay.restartAfter` only." },
        "relay.offsetCommit": { default: "`afterAck`", text: "With `cdc`: the connector's offset moves past a change after the broker acknowledged it, or before it is sent." },
        cleanup: { default: "no cleanup", text: "The `cleanup.*` rows below, and `cleanup.timeout`; `retention` is required." },
        consumer: { default: "one member of group `inventory`, inbox `sameTx`, ack `afterCommit`", text: "`consumers: 2` draws `consumer1` and `consumer2` in one group (the `rebalance` fault then strikes); `inbox: 'localCache'` keeps the inbox in process memory." },
        effectKey: { default: "`semantic`", text: "The reservation table's key: `(order_id, reservation_version)`, or a surrogate id that lets every repeat insert another row." },
        effect: { default: "`reservation`", text: "Insert a reservation per order, or upsert an `order_status` projection whose versions are kept (for `projectionClaim`)." },
        client: { default: "", text: "The client's own options (`gap`, `restartAfter`…)." },
        source: { default: "", text: "The order service's `timeout` and `restartAfter`." },
        checkoutKeys: { default: "`false`", text: "The source records each command's key under a unique constraint in the order's transaction; a repeat gets the recorded outcome. `intentBound` (or `true`) refuses the key for another intent, `honoured` answers it with the old order." },
        broker: { default: "", text: "The broker's own options (`commits`, `restartAfter`…)." },
        ordersDb: { default: "", text: "The orders database's own options (`crashes`, `restorable`, `backups`, `restartAfter`)." },
        "ordersDb.tables": { default: "none", text: "Changes to the tables the pipeline declares, each table option as `database`'s: `inventoryDb: { tables: { inbox: { ttl: '7d' } } }` makes the inbox forget an event_id after 7 days." },
        inventoryDb: { default: "", text: "The inventory database's own options." },
        "inventoryDb.tables": { default: "none", text: "The same, for the inventory database's tables." },
        crashes: { default: "none", text: "The servers that crash and restart at their own windows, as each server's `crashes` option." },
        restores: { default: "none", text: "The servers a `restore` fault can set back to their snapshot, as each server's `restorable` option: the broker's group offsets to where they stood before the workload (the log kept, so the consumer reads it all again), or the inventory database's tables to the backup taken before the workload; `inventoryDbWithOffsets` restores both with one fault (the database's `restoreWith: ['broker']`), the consumer's data and its input position as one snapshot." },
        commands: { values: "`(size) => Command[]`", default: "`acceptOrders`: one acceptance per order `o-1` … `o-size`", text: "The commands the client sends; the module also exports `acceptTwice`, `checkouts`, `checkoutsReusingAKey` and `orderLifecycle`." },
        },
      },
      {
        title: "providerPipeline",
        schemas: ["providerPipeline"],
        intro: "`providerPipeline(options)` (`models/designs/providerPipeline.ts`), an effect at the edge of the transaction: a `publisher` whose facts are already committed, the `broker`, a `caller` that calls an external `provider` and keeps its local records in `callerDb` (`effect_intents`, `effect_outcomes`), and optionally a `reconciler`, and an `operator` rebuild (with `rebuild` and `rebuildDb` for a separate namespace). Claims: `providerClaim(fields, sentence, names?)`, one provider operation per published fact keyed by the payload `fields`: `sentence` is every field of a claim but `key`, `outcomes` and `facts` (`effect`, `authority`, `lifetime`, and optionally `sameIntent`, `differentIntent`, `unknownCompletion`, `guarantee`…), and `names` (`{ ledger, facts, columns? }`, default `PROVIDER_PIPELINE.claimTables`: `provider_operations` and `published_events`) names the tables its repair queries read, the provider's operations as its ledger export and the publisher's facts as their outbox of events. It reads the components named `provider` and `publisher`. Beside it: `unresolvedOutcomes(db?)` (the caller's PENDING and UNKNOWN records, for a claim's `unresolved`) and `keyConflicts(db?)` (for `conflicts`).\n\nIts component and table names are the constants `PROVIDER_PIPELINE`.",
        options: {
        records: { values: "`(size) => Payload[]`", text: "The committed facts the publisher hands to the broker." },
        keyField: { text: "The payload field the broker partitions by." },
        group: { text: "The caller's consumer group." },
        caller: { text: "The caller's choices: `effectKey`, `sendKey`, `statusLookup` and `recordIntent` are required; `retry: { backoff, factor, cap, until }` retries with backoff until a deadline." },
        provider: { text: "The provider's contract: `idempotency` and `statusLookup` are required; `keyRetention` and `restartAfter` (how long an outage lasts) are its own." },
        publisher: { default: "", text: "The publisher's `delivery`, `timeout`, `restartAfter`." },
        broker: { default: "", text: "The broker's own options." },
        callerDb: { default: "", text: "The caller's database's own options (the rows above)." },
        "callerDb.tables": { default: "none", text: "Changes to the caller's tables (`effect_intents`, `effect_outcomes`), each table option as `database`'s." },
        reconciler: { default: "no reconciler", text: "The reconciler's own options (the rows above, and `timeout`, `restartAfter`)." },
        "rebuild.through": { text: "With `rebuild` (no rebuild without it): an operator replays the log through the live identity (its tables truncated, its group rewound to 0), or through a group `<group>-rebuild-v2` with its own `rebuildDb` and the provider call gated." },
        "rebuild.after": { text: "When the operator starts the rebuild." },
        restores: { default: "none", text: "The servers a `restore` fault can set back to their snapshot taken before the workload: the caller's records, the broker's group offsets. Restored at one moment (a pair of faults, or one fault with `callerDbWithOffsets`) they are one consistent snapshot, replayed from the start." },
        },
        after: "Three presets draw a `providerPipeline` with fixed figures:\n\n| preset | parameters | what it builds |\n| --- | --- | --- |\n| `paymentCapture(o)` (`paymentCapture.ts`) | `idempotency` (as `provider.idempotency`, required); `reconciler.sweep` (default `pendingAndUnknown`); `amendment` (boolean, default `true`: pi-1 is published again with another amount) | One capture per payment intent, keyed by `payment_intent_id`, group `payments`; the caller sends the key, looks up, records its intent and calls once per delivery (`maxAttempts: 1`); the provider looks up by key; a reconciler is always present. Claim: `paymentCaptureClaim`. |\n| `carrierPipeline(caller, provider, restores?, callerDb?)` (`carrier.ts`) | `caller`: `sendKey`, `statusLookup`, `recordIntent` (required), `maxAttempts` (default 3); `provider`, `restores` and `callerDb`: as `providerPipeline`'s | One pickup per accepted order keyed by `(order_id, pickup_version)`, group `fulfillment`. Claims: `pickupAttemptClaim`, `uniquePickupClaim(…)`. |\n| `confirmationsPipeline(through)` (`confirmations.ts`) | `through`: `liveConsumer`, `separateNamespace` | Order confirmations through an email provider that binds keys to intents, looks up by key and keeps a key 60 s; an operator rebuild after 150 s. Claims: `confirmationSentClaim`, `rebuildOutputClaim`. |",
      },
      {
        title: "shipmentPipeline",
        schemas: [],
        intro: "`shipmentPipeline(shipping, carrier)` (`models/designs/shipments.ts`), a shipment service at the edge of the transaction: a `publisher` of pickup requests (one per order, `(order_id, pickup_version)`), the `broker`, the `shipping` service (a `commitThenCall`, group `shipping`) with `shippingDb` (table `shipments`), and the carrier (`provider`). `shipping` takes `commitThenCall`'s `sendKey`, `statusLookup`, `existingRow`, `retry`, `maxAttempts` and `timeout`; `carrier` takes `provider`'s `idempotency`, `statusLookup`, `keyRetention` and `restartAfter`. Claim: `shipmentBookingClaim({ authority, unknownCompletion })`, one booked pickup per committed shipment row (the carrier's ledger as `carrier_pickups`, the rows as `shipments`).",
        options: {

        },
      },
      {
        title: "flowPipeline",
        schemas: ["flowDesign"],
        intro: "`flowPipeline(flow)` (`models/designs/flowRegister.ts`), one flow of a decision register: a `publisher`, the `broker`, a `consumer` and its database. The module exports the register's flows as values (`reviewPosted`, `ratingChanged`, `ratingChangedFireAndForget`, `pageViewed`, `giftPaymentCaptured`) and their claims.\n\nIts component and table names are the constants `FLOW_PIPELINE`.",
        options: {
        flow: { text: "The register's id and event, e.g. `EV-01 review.posted`; a label." },
        records: { values: "`(size) => Payload[]`", text: "The facts published." },
        keyField: { text: "The partition key, which is the ordering scope." },
        delivery: { text: "The publisher's delivery, as for `publisher`." },
        consumer: { text: "`group`, `inbox` and `effect` are required." },
        db: { text: "The consuming service's database name." },
        tables: { values: "`{ [table]: table options }`", text: "Its tables, as `database`'s." },
        "tables.*.key": { values: "list of columns", text: "The primary key." },
        "tables.*.unique": { values: "list of column lists", default: "none", text: "Further unique keys." },
        "tables.*.ttl": { default: "for ever", text: "Rows older than this are gone." },
        "tables.*.capacity": { values: "whole number ≥ 1", default: "unbounded", text: "At most this many rows; a commit that leaves more evicts the oldest." },
        "tables.*.autoId": { default: "`false`", text: "The database assigns the single key column." },
        "tables.*.history": { default: "`false`", text: "Keep every committed version of every row." },
        database: { default: "", text: "The flow's database's own options (`crashes`, `restorable`)." },
        publisher: { default: "", text: "The publisher's `timeout`, `restartAfter`." },
        broker: { default: "", text: "The broker's own options." },
        },
      },
      {
        title: "giftSaga",
        schemas: ["giftSaga"],
        intro: "`giftSaga(options)` (`models/designs/giftSaga.ts`), an orchestrated gift purchase: an `orchestrator` and three `participant`s, `payments` and `inventory` (both idempotent) and `notifications`. Claims: `giftSagaClaims`, three claims over the confirmed purchases (`gift_orders` rows whose state is `CONFIRMED`): a gift-code email for each confirmed purchase and none for a cancelled one, at least once (`giftEmailClaim`: a repeated email is accepted, so a design that promises one email, with `emailIdempotent: true`, claims `giftEmailOnceClaim` in its place, under which a repeat is a duplicate effect); one captured payment per confirmed purchase, net of refunds (`giftCaptureClaim`); and one e-book licence held per confirmed purchase, net of releases (`giftLicenceClaim`). A participant's operations are read with `participantOperations`.\n\nIts component and table names are the constants `GIFT_SAGA`.",
        options: {
        emailStep: { text: "The email, which cannot be undone, is sent as soon as the order exists or only once nothing after it can fail." },
        purchases: { values: "`(size) => GiftPurchase[]`", default: "`giftPurchases`: `g-1` … `g-size`, every second one declined at capture", text: "The purchases the orchestrator runs, one after another." },
        emailIdempotent: { default: "`false`", text: "The email provider returns the recorded message for a repeated (saga, email) instead of sending another." },
        orchestrator: { default: "", text: "Its `timeout`, `restartAfter`." },
        payments: { default: "", text: "Each participant's `restartAfter`." },
        inventory: { default: "", text: "Each participant's `restartAfter`." },
        notifications: { default: "", text: "Each participant's `restartAfter`." },
        },
      },
      {
        title: "partnerFeed",
        schemas: ["partnerFeed"],
        intro: "`partnerFeed(options)` (`models/designs/partnerFeed.ts`), a partner that sends every fact again later: the `partner`, the `broker`, a loyalty `consumer` (inbox in the credit's transaction, credits with a surrogate id) and `loyaltyDb`. Claim: `loyaltyCreditClaim`.\n\nIts component and table names are the constants `PARTNER_FEED`.",
        options: {
        redeliverAfter: { text: "How long after its first round the partner sends every fact again." },
        inboxTtl: { default: "for ever", text: "How long the inbox remembers an event_id after it committed; a redelivery after that is credited again." },
        partner: { default: "", text: "The partner's `timeout`, `restartAfter`." },
        broker: { default: "", text: "The broker's own options." },
        consumer: { default: "group `loyalty`, inbox `sameTx`", text: "The loyalty consumer's own options (`inbox: 'localCache'`, `timeout`…)." },
        loyaltyDb: { default: "", text: "As for `orderPipeline`'s databases." },
        "loyaltyDb.tables": { default: "none", text: "Changes to its tables (`credits`, `inbox`), each table option as `database`'s." },
        },
      },
      {
        title: "groupPipeline",
        schemas: ["groupPipeline"],
        intro: "`groupPipeline(options)` (`models/designs/groupPipeline.ts`), a consumer group at work: a `publisher` of reservation requests, a `broker`, members `consumer1` … `consumerK` of group `inventory`, and `inventoryDb`. With two or more members the `rebalance` fault strikes the broker's deliveries. Claim: `groupReservationClaim`.\n\nIts component and table names are the constants `GROUP_PIPELINE`.",
        options: {
        consumers: { text: "Members of the group." },
        partitions: { default: "2", text: "Partitions of the topic, shared round-robin among live members." },
        commits: { default: "`naive`", text: "A previous owner's late offset commit is accepted, or refused by the generation it carries." },
        inbox: { text: "The consumed event_id kept in the reservation's transaction, in each member's memory, or nowhere." },
        handler: { default: "`atomic`", text: "One insert, or a lookup and then an insert in a second statement." },
        effectKey: { text: "The reservation table's key is the reservation, or a surrogate id with no unique key." },
        consumer: { default: "", text: "The members' other options (`ack`, `timeout`, `retry`…)." },
        publisher: { default: "", text: "The publisher's own options." },
        broker: { default: "", text: "The broker's other options." },
        inventoryDb: { default: "", text: "As for `orderPipeline`'s databases." },
        "inventoryDb.tables": { default: "none", text: "Changes to its tables (`reservations`, `inbox`), each table option as `database`'s." },
        },
      },
      {
        title: "poisonPipeline",
        schemas: ["poisonPipeline"],
        intro: "`poisonPipeline(options)` (`models/designs/poisonPipeline.ts`), a record the handler cannot process: a `publisher` of rating changes (three versions per book for at least two books; book b-1's second version is the bad record), a `broker`, the stats `consumer` and `statsDb`, plus `retryTopic` and `retryConsumer` for a retry topic and `deadLetters` for a dead-letter topic. Its scenarios use a tick of `'250ms'` (`POISON_TICK`). Claims: `bookOrderClaim`, `recordAccountedClaim`, `otherBooksTimelyClaim(bound, tick)`.\n\nIts component and table names are the constants `POISON_PIPELINE`.",
        options: {
        retry: { text: "Retry inside the handler (everything behind it waits), or hand the record to a retry topic and move on." },
        parkKeys: { default: "`false`", text: "With `retryTopic`: later records of a failed record's key follow it through the retry topic instead of overtaking it." },
        deadLetter: { text: "After the last retry the record goes to a dead-letter topic with an owning team; without it the record is retried for ever." },
        backoff: { default: "`1s`, `2s`, `4s`, `8s`, `16s`, `32s`, `60s`, `60s`", text: "The wait before each retry; as many retries as waits." },
        bad: { text: "The bad record fails every time, or its first four attempts." },
        consumer: { default: "", text: "Both stats consumers' other options." },
        publisher: { default: "", text: "The publisher's own options." },
        broker: { default: "", text: "The ratings broker's own options." },
        statsDb: { default: "", text: "As for `orderPipeline`'s databases." },
        "statsDb.tables": { default: "none", text: "Changes to its tables, each table option as `database`'s." },
        },
      },
      {
        title: "readProcessWrite",
        schemas: ["readProcessWrite"],
        intro: "`readProcessWrite(options)` (`models/designs/readProcessWrite.ts`), a stream processor between two topics of one broker cluster (the limits of a broker's exactly-once transactions, topic to topic): the cluster `topics` (topic `in` with `size` payments, topic `out`, and the group's offset on `in`; it only answers and does not crash) and the `processor`, which reads a record, writes its result to `out` and moves the offset. A transaction that starts from an offset the group has already moved past changes nothing (guard `transactionFence`, standing in for Kafka's producer id, epoch and sequence numbers). Claim: `topicResultClaim` (every record of `in` has its result in `out` exactly once). Scenarios: `topic-transactional-read-process-write` (holds), `topic-read-process-write-separate-commit` (violated, duplicate effect) and `topic-transactional-read-process-write-email` (the result holds, the email is lost and repeated: the boundary ends at the cluster).",
        options: {
        commit: { text: "The result and the offset in one producer transaction, or the offset committed in a second request after the result's acknowledgement." },
        timeout: { default: "20 ticks", text: "How long the processor waits for an answer before asking again." },
        email: { default: "`false`", text: "Also send each record's confirmation email through a `mailer` (a gateway that keeps every email it is handed) as the record is taken up, outside the transaction. Claim: `paymentEmailClaim`." },
        },
      },
      {
        title: "streamPipeline",
        schemas: ["streamPipeline"],
        intro: "`streamPipeline(options)` (`models/designs/streamPipeline.ts`), stateful stream processing in event time: devices `device0` … upload facts (each planned at a true tick, stamped with the device's clock) to their partitions of an event `log`; the `aggregator` counts them into tumbling windows by event time, with a watermark, allowed lateness and a late-data policy, takes checkpoints that bind its positions, window state, watermark and (with a transactional sink) the sink's epoch; and posts each window's result to the `sink`. Each fact a result counts carries its event time (the device's clock), ingestion time (the log's), processing time (the aggregator's) and, once visible, commit time (the sink's): `factTimeline(posts)` in `models/resultSink.ts` reads them back per fact. Its scenarios use a tick of `'10s'` (`STREAM_TICK`). Claims: `resultDeliveryClaim(sink)` (each window's result, each version, posted once), `correctionOnceClaim()` (a late fact's correction posted once), `factCountedOnceClaim()` (each fact counted once in its true window, by the final result, a linked correction, review or a counted drop), `closedPeriodClaim('ledger' | 'dashboard')` (a final result never revised silently: its finality clause judges every revision, retraction, correction, review or counted drop that reaches a closed window) and `timelyResultClaim(bound)` (a window's first result within `bound` of its end, or of its first record's arrival when that came later). Each claim takes the design's shape as its last argument, `{ window }`: a design whose `window` is not 10 minutes gives the same duration to its claims (`factCountedOnceClaim({ window: '5m' })`, `resultDeliveryClaim('transactional', { window: '5m' })`), or they place facts in windows the aggregator does not; the devices are read from the log, one partition each.\n\nIts component and table names are the constants `STREAM_PIPELINE`.",
        options: {
        devices: { default: "2", text: "Devices, one partition each; device `d`'s `k`-th fact occurs at 200 s + k × 450 s + d × 250 s." },
        sink: { text: "An endpoint that keeps every post (a replay posts again), a store that keeps one post per key and refuses another content under it, or a store inside the checkpoint (staged under an epoch, visible once the checkpoint completes)." },
        window: { default: "`10m`", text: "The tumbling window." },
        watermarkDelay: { default: "`2m`", text: "How far the watermark stays behind the latest event time of the slowest partition still counted." },
        lateness: { default: "`15m`", text: "How long after its end a window's result is revised by a late fact (under the next version); then the window closes. With `late: 'wait'`, how long each window waits before its one result." },
        late: { default: "`correction`", text: "A fact after its window closed: one correction linked to the closed result; a new version of it; a retraction of the version readers hold, then its replacement under the next version (revisions within the lateness are retracted the same way); the same version posted again (silent); routed to review; dropped and counted; dropped without a word. `wait` is \"wait longer\": no provisional result, each window's one result waits until the watermark has passed its end plus `lateness` and is final at once, so facts that late are counted in it and later ones go to review; its cost is later results and more windows held open, which the aggregator's evidence shows as `held open: at most N windows`." },
        idleAfter: { default: "never", text: "A partition silent this long (processing time) is left out of the watermark until it sends again." },
        dedup: { default: "`true`", text: "A fact id already counted in its window is not counted again." },
        checkpointEvery: { default: "`5m`", text: "How often a checkpoint completes (once every post is acknowledged)." },
        poll: { default: "`30s`", text: "How often the aggregator reads the log." },
        restorable: { default: "`false`", text: "A `restore` fault can set the aggregator back to the checkpoint before its latest." },
        restoreTo: { default: "not restorable (unless `restorable`)", text: "Which completed checkpoint a `restore` fault sets the aggregator back to: the latest (what a crash restores, at a moment an operator chooses), the one before it (as `restorable`), or the newest one at least that old at the moment of the restore (the empty one when none is), the aggregator keeping the checkpoints such a restore can reach." },
        correctionId: { default: "`derived`", text: "A correction's identity: from its window and the fact it carries, so a store keyed by identity recognises a correction a replay makes again; or drawn when it is processed (as a random id would be), so each replay's correction is a new one to the store." },
        "upgrade.at": { text: "With `upgrade` (no upgrade without it): new code of state schema 2 is deployed at this time, after a savepoint." },
        "upgrade.migrates": { text: "The new code reads schema-1 checkpoints and rewrites them; without, it stops in `aggregator.unreadableCheckpoint`." },
        device: { default: "", text: "Every device's own options (the rows above)." },
        "aggregator.name": { values: "as every factory", default: "", text: "" },
        "aggregator.restartAfter": { values: "as every factory", default: "", text: "" },
        "aggregator.notes": { values: "as every factory", default: "", text: "" },
        "aggregator.timeout": { default: "`2m`", text: "How long the aggregator waits for an answer before asking again." },
        },
      },
      {
        title: "reprocessing",
        schemas: ["reprocessing"],
        intro: "`reprocessing(options)` (`models/designs/reprocessing.ts`), a versioned reprocessing run (history reprocessed with today's code without rewriting it, its side effects gated): two devices whose facts were written in four event schemas (1: no quantity field, each order one unit; 2: the quantity named `qty`; 3: `quantity` in dozens; 4: `quantity` in units), the live `aggregator` that read each schema with its era's code and sends an alert email (to `alerts`) for each window it closes (and, with `captures`, charges the window's total to the partner through the payment provider `payments`, keyed by window and run), a `rebuild` aggregator under its own identity started 40 minutes in with today's code and the design's adapters, its results in `rebuildSink`, and a `promoter` that compares the two runs window by window and cuts over. Claims: `servedTotalsClaim` (readers are served each window's total in today's meaning: on replay, the same facts return the total they add up to), `alertOnceClaim` (one alert per window, an irreversible effect), `captureOnceClaim` (one settlement capture per window, another) and `promotionClaim` (the rebuild ends promoted). The promoter compares only once both runs have results for the same windows, every one closed.\n\nIts component and table names are the constants `REPROCESSING`.",
        options: {
        adapters: { text: "Today's code has an adapter per historical schema, or lacks one: for schema 1 (no quantity field: read as today's default, 0), schema 2 (the field renamed `qty`: not found, so 0 too) or schema 3 (`quantity` in dozens: read as units)." },
        compare: { text: "The promoter compares totals and fact counts of every window before the cutover, and refuses on a difference." },
        gated: { text: "The rebuild's alert emails are switched off." },
        output: { default: "`isolated`", text: "The rebuild writes to its own namespace, or into the live results; `live` cannot go with `compare: true` (refused: the promoter would compare the live results with themselves)." },
        captures: { default: "none", text: "The live run charges each closed window's total through the payment provider, and the rebuild's charges are switched off, or left on (each run keys its captures by its own run id, so the provider cannot recognise the rebuild's as repeats). Without it nothing is charged." },
        device: { default: "", text: "Both devices' `restartAfter`, `skew`, `timeout`." },
        },
      },
    ],
  },
  {
    title: 'World settings',
    intro: '',
    sections: [
      {
        title: "World settings",
        schemas: ["world"],
        intro: "A scenario's `world` field sets the simulation around the design, in durations of its time scale (the defaults are the World's, in ticks: `DEFAULT_WORLD_OPTIONS` in `src/run/world.ts`).",
        options: {
        latency: { default: "1 to 3 ticks", text: "Every message takes a latency drawn from this window; each link keeps its order." },
        delayFault: { values: "duration ≥ 1 tick", default: "40 ticks", text: "How late a `delay` fault makes a message arrive." },
        restartAfter: { values: "duration ≥ 1 tick", default: "10 ticks", text: "How long a crashed component stays down, unless its own `restartAfter` says otherwise." },
        safetyPhase: { values: "duration ≥ 1 tick", default: "2,000 ticks", text: "The longest the phase with faults lasts; it ends earlier once the world is quiet." },
        livenessPhase: { values: "duration ≥ 1 tick", default: "4,000 ticks", text: "How long the world has, faults healed and crashed components back, to reach quiescence, counting only the time in which it changes or a process is busy (a wait for a timer costs nothing); past it the run is \"no quiescence\"." },
        quiet: { values: "duration ≥ 1 tick", default: "60 ticks", text: "The world is quiet when nothing durable has changed for this long." },
        stepsMax: { values: "whole number ≥ 1 (a count)", default: "200,000", text: "Steps a run may take before it is cut. A cut run never reached its end, so the clauses judged there (every fact has its effect, every unknown outcome resolved, the world quiet) are inconclusive, never a finding; what it did commit is judged as it stands." },
        },
        after: "The scenario's other settings: `tick` (how long one tick is, default `'1s'`), `workload.size` (the units of work, required), and `windows.maxOccurrence` (a bound on the occurrences of each window and message point windows mode strikes; by default every occurrence the runs reach, and a bound that leaves some unstruck makes the verdict \"holds within bound\") and `windows.kinds` (the fault kinds it tries, default all of them). The World's `driver` (`compiled`, the default, or `xstate`) is chosen by the engine, not the scenario (see [Machines and their drivers](internals.md#machines-and-their-drivers)).",
      },
    ],
  },
];
