// A stream design's records as the tables a production team would query, so its claims' repair
// queries can name them: each device's facts with the moment they truly occurred (the device's
// own storage, the truth results are held to), the event log as the table its sink connector
// fills, and a results store's posts in the order they became visible, with each post's facts as
// a child table (one row per fact a post counts). Times are seconds from the run's start, and
// each fact or post carries the window it falls in (`window_id`, the window's index), reckoned
// the way the claims reckon it: a fact's true window from when it occurred, a record's from the
// event time the device stamped.
import type { ClaimTable, TableView } from '../../src/checkers/claims.ts';
import type { TimeScale } from '../../src/base/duration.ts';
import type { WorldView } from '../../src/kernel/worldView.ts';
import type { DeviceDurable } from '../device.ts';
import { factRecords, type EventLogDurable } from '../eventLog.ts';
import type { SinkDurable } from '../resultSink.ts';

/** How the views reckon time: the scenario's tick and the window, both in ticks. */
export interface StreamClock {
  readonly time: TimeScale;
  readonly windowTicks: number;
  /** How many devices write to the log; absent, one per partition of the log, as the stream presets draw them. */
  readonly devices?: number;
}

/** The design's devices, `device0` on: as many as the clock says, else one per partition of the log. */
export function devicesOf(c: Pick<StreamClock, 'devices'>, v: WorldView): string[] {
  const n = c.devices ?? v.durable<EventLogDurable>('log').partitions.length;
  return Array.from({ length: n }, (_, d) => `device${d}`);
}

const seconds = (c: StreamClock, ticks: number) => c.time.tickSeconds.times(ticks).toNumber();
const windowAt = (c: StreamClock, ticks: number) => Math.floor(ticks / c.windowTicks);

/** Every device's facts, with when each truly occurred and the window that puts it in. */
export function deviceFactsView(c: StreamClock): TableView {
  return {
    table: 'device_facts',
    columns: { fact_id: 'text', device: 'text', occurs_at: 'bigint', value: 'bigint', window_id: 'bigint' },
    rows: (v) =>
      devicesOf(c, v).flatMap((device) =>
        v.durable<DeviceDurable>(device).facts.map((f) => ({ fact_id: f.fact_id, device, occurs_at: seconds(c, f.occursAt), value: f.value, window_id: windowAt(c, f.occursAt) })),
      ),
  };
}

/** The log's fact records (end markers left out), with the event time stamped and the window that puts it in. */
export function factRecordsView(c: StreamClock): TableView {
  return {
    table: 'fact_records',
    columns: { partition: 'bigint', offset: 'bigint', fact_id: 'text', event_time: 'bigint', ingested_at: 'bigint', value: 'bigint', window_id: 'bigint' },
    rows: (v) =>
      factRecords(v.durable<EventLogDurable>('log')).map((r) => ({
        partition: r.partition,
        offset: r.offset,
        fact_id: r.fact_id,
        event_time: seconds(c, r.eventTime),
        ingested_at: seconds(c, r.ingestedAt),
        value: r.value,
        window_id: windowAt(c, r.eventTime),
      })),
  };
}

/** A results store's posts in the order readers saw them (`seq`), and the facts each counts, as `<table>` and `<table>_facts`. */
export function resultViews(table: string, sink: (v: WorldView) => SinkDurable, c: StreamClock): TableView[] {
  const posts = (v: WorldView) => sink(v).posts.map((p, i) => ({ p, seq: i + 1 }));
  return [
    {
      table,
      columns: { seq: 'bigint', kind: 'text', window_id: 'bigint', version: 'bigint', facts: 'jsonb', value: 'bigint', corrects: 'text', run: 'text', visible_at: 'bigint' },
      rows: (v) =>
        posts(v).map(({ p, seq }) => ({
          seq,
          kind: p.kind,
          window_id: p.window,
          version: 'version' in p ? p.version : null,
          facts: 'facts' in p ? p.facts : null,
          value: 'value' in p ? p.value : null,
          corrects: 'corrects' in p ? p.corrects : null,
          run: 'run' in p ? (p.run ?? null) : null,
          visible_at: seconds(c, p.at),
        })),
    },
    {
      table: `${table}_facts`,
      columns: { seq: 'bigint', kind: 'text', window_id: 'bigint', version: 'bigint', fact_id: 'text' },
      rows: (v) => posts(v).flatMap(({ p, seq }) => ('facts' in p ? p.facts.map((fact_id) => ({ seq, kind: p.kind, window_id: p.window, version: 'version' in p ? p.version : null, fact_id })) : [])),
    },
  ];
}

/**
 * A result post of `table` that is its window's final result, as finalResults reads it: the
 * highest version, the latest of them, unless a later retraction withdrew that version.
 */
export const isFinalResult = (table: string) =>
  `$kind = 'result' AND $seq = (SELECT latest.seq FROM ${table} latest WHERE latest.kind = 'result' AND latest.window_id = $window_id ORDER BY latest.version DESC, latest.seq DESC LIMIT 1) AND NOT EXISTS (SELECT 1 FROM ${table} r WHERE r.kind = 'retraction' AND r.window_id = $window_id AND r.version = $version AND r.seq > $seq)`;

/** The facts a post counts, as one sorted list, to compare two posts' contents. */
const sortedFacts = (table: string, post: string) => `ARRAY(SELECT x.fact_id FROM ${table}_facts x WHERE x.seq = ${post} ORDER BY x.fact_id)`;

/** Result posts under a window and version another post under them holds with other facts. */
export function differingResults(table: string): ClaimTable {
  return {
    table,
    key: ['window_id', 'version'],
    where: `$kind = 'result' AND EXISTS (SELECT 1 FROM ${table} o WHERE o.kind = 'result' AND o.window_id = $window_id AND o.version = $version AND ${sortedFacts(table, 'o.seq')} <> ${sortedFacts(table, '$seq')})`,
    format: 'w{0}@v{1}',
  };
}
