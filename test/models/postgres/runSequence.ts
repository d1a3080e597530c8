// Runs one generated sequence on the model and on PostgreSQL, step by step, and compares every
// answer and, at the end, every table's committed rows.
//
// A step goes to the model first. Its replies say which sessions answered at this step; the
// model's waiting list says which sessions wait, and for whom. The same step then goes to
// PostgreSQL, and the runner checks each session there: one the model answered must answer the
// same (a statement PostgreSQL makes wait shows up as `waits for b1` instead), one the model
// holds waiting must be waiting on a lock of the same session (pg_blocking_pids). Nothing is
// timed: a waiting statement is seen in the server's lock table, not guessed from a delay.
//
// PostgreSQL picks a deadlock's victim by time: each waiter looks for a cycle once, when its
// deadlock_timeout expires, and the first to find one fails. The model fails the statement that
// closes the cycle. So before a step that the model says ends in a deadlock, the runner lets
// every waiter's deadlock_timeout pass first; then the closing statement is the one that looks.
import type { DbOp } from '../../../models/database.ts';
import { modelAnswer, postgresAnswer, postgresError, rowsText } from './answers.ts';
import { ModelDatabase, type Delivered } from './modelDatabase.ts';
import { createTables, describeSchema, tableSpecs, type Schema } from './schema.ts';
import { asSqlError, type SqlBackend } from './sqlBackend.ts';
import { peerOf, SESSIONS, type Step } from './steps.ts';
import { inline, selectList, toSql } from './toSql.ts';

export interface Divergence {
  /** What differed, in one line. */
  readonly summary: string;
  /** The schema, the steps taken with both sides' answers, up to the divergence. */
  readonly transcript: string;
}

export interface SequenceResult {
  /** Steps that applied (a step that does not apply in the model's state is skipped). */
  readonly steps: number;
  /** Statements that waited for a lock. */
  readonly waits: number;
  /** Statements that failed as a deadlock. */
  readonly deadlocks: number;
  /** The model's side: each applied step, what it answered, and the tables at the end. */
  readonly answers: readonly string[];
  readonly divergence?: Divergence;
}

interface Session {
  readonly name: string;
  /** The model's transaction name while one is open. */
  tx: string | undefined;
  /** The statement batch (or autocommitted run) PostgreSQL is still working on. */
  job: Promise<string> | undefined;
  /** When PostgreSQL was first seen making this session wait for `waitingFor`, in ms. */
  waitingSince: number | undefined;
  waitingFor: string | undefined;
  n: number;
  /**
   * Counts the session's dropped connections. A job remembers the count it started under and
   * sends nothing once it has moved on: the backend opens a new connection for a session whose
   * old one was terminated, and a statement of the dead transaction sent there would run in
   * autocommit and commit what PostgreSQL itself rolled back.
   */
  connection: number;
}

const peerOfKey = (key: string): string => key.slice(0, key.indexOf('/'));
const sessionOfName = (name: string): string => name.split('.')[0]!;
/** The session a model transaction key (`peer/name`, an autocommitted run's `peer/run name`) belongs to. */
const sessionOfKey = (key: string): string => sessionOfName(key.slice(key.indexOf('/') + 1).replace(/^run /, ''));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a statement may take before the runner looks at it as stuck; generous, never reached when all is well. */
const PATIENCE_MS = 10_000;

/**
 * Slack on top of twice the deadlock_timeout before a step the model ends in a deadlock: a
 * waiter's check must have run by then even on a loaded machine, or it, not the statement that
 * closes the cycle, would find the deadlock.
 */
const DEADLOCK_MARGIN_MS = 250;

/**
 * Runs a sequence on the model and, given a backend, on PostgreSQL, comparing as it goes. Without
 * a backend it only records the model's answers (the regression cases check those).
 */
export async function runSequence(schema: Schema, steps: readonly Step[], backend: SqlBackend | undefined): Promise<SequenceResult> {
  const model = new ModelDatabase(tableSpecs(schema));
  await backend?.reset(createTables(schema));
  const sessions = new Map<string, Session>(SESSIONS.map((name) => [name, { name, tx: undefined, job: undefined, waitingSince: undefined, waitingFor: undefined, n: 0, connection: 0 }]));
  const transcript: string[] = [describeSchema(schema)];
  const answers: string[] = [];
  let applied = 0;
  let waits = 0;
  let deadlocks = 0;

  const opsText = (ops: readonly DbOp[]) => ops.map((op) => inline(toSql(schema, op))).join('; ');
  const answerLine = (d: Delivered, opsOf: (session: string) => readonly DbOp[]): string => {
    const e = d.event;
    if (e.type === 'db.committed') return `${sessionOfName(e.tx)} commit: ${e.ok ? 'ok' : 'failed'}`;
    if (e.type === 'db.result') {
      const ops = opsOf(sessionOfName(e.tx));
      return `${sessionOfName(e.tx)} result: ${ops.map((op, i) => modelAnswer(schema, op, e.results[i])).join('; ')}`;
    }
    const ops = opsOf(sessionOfName(e.ref));
    return `${sessionOfName(e.ref)} ran ${e.ok ? 'ok' : 'failed'}: ${ops.map((op, i) => modelAnswer(schema, op, e.results[i])).join('; ')}`;
  };
  // The ops each session last sent, to read its (possibly late) answer against.
  const lastOps = new Map<string, readonly DbOp[]>();

  /** A statement of a job that started on connection `connection` of session `s`. */
  const send = (backend: SqlBackend, s: Session, connection: number, text: string, values?: readonly unknown[]) => {
    if (s.connection !== connection) return Promise.reject(Object.assign(new Error(`${s.name}: the connection this statement belongs to was dropped`), { code: '57P01' }));
    return backend.query(s.name, text, values);
  };

  const runOps = async (backend: SqlBackend, s: Session, connection: number, ops: readonly DbOp[]): Promise<string[]> => {
    const out: string[] = [];
    for (const op of ops) {
      const st = toSql(schema, op);
      try {
        out.push(postgresAnswer(schema, op, await send(backend, s, connection, st.text, st.values)));
      } catch (e) {
        const error = asSqlError(e);
        // A dropped connection ends the batch: nothing after it may run on a new one.
        if (error.code === '57P01') throw e;
        out.push(postgresError(schema, error));
      }
    }
    return out;
  };

  /**
   * Watches every session PostgreSQL is still working for until each has answered or waits for
   * a lock, and says what each did: its answer line, or `waits for X`. A session waiting for one
   * that is itself still working (a wake-up that cascades, a deadlock not yet detected) is given
   * time; one waiting for an idle session, or for one settled in waiting, waits for good.
   */
  const settle = async (backend: SqlBackend, waitFor: ReadonlyMap<string, string>): Promise<string[]> => {
    const busy = [...sessions.values()].filter((s) => s.job !== undefined);
    const lines = new Map<string, string>();
    const done = new Set<string>();
    for (const s of busy) {
      const settled = s.job!.then(
        (line) => (lines.set(s.name, line), done.add(s.name)),
        (e) => (lines.set(s.name, `${s.name} failed: ${String(e)}`), done.add(s.name)),
      );
      // Handled here, so a job failing while the runner looks elsewhere is no unhandled rejection.
      settled.catch(() => undefined);
    }
    const finish = (s: Session) => {
      s.job = undefined;
      s.waitingSince = undefined;
      s.waitingFor = undefined;
    };
    if (!backend.concurrent) {
      // One session at a time: nothing can wait, so the answer is simply awaited.
      for (const s of busy) await s.job!.catch(() => undefined);
    }
    const waiting = new Map<string, string[]>();
    const start = Date.now();
    // Most answers come at once: wait for those first, for a moment, before looking at locks.
    const answering = busy.filter((s) => !waitFor.has(s.name)).map((s) => s.job!.catch(() => undefined));
    if (answering.length > 0) await Promise.race([Promise.all(answering), sleep(20)]);
    let pause = 0;
    while (busy.some((s) => !done.has(s.name) && !waiting.has(s.name))) {
      await sleep(pause);
      pause = Math.min(pause + 1, 3);
      for (const s of busy) {
        if (done.has(s.name) || waiting.has(s.name)) continue;
        const blockers = await backend.blockers(s.name);
        if (done.has(s.name) || blockers.length === 0) continue;
        const expected = waitFor.get(s.name);
        // Waiting for a session that is idle, or that waits itself, cannot change before the next step.
        const stable = blockers.every((b) => !busy.some((o) => o.name === b) || waiting.has(b));
        if ((expected !== undefined && blockers.includes(expected)) || stable) waiting.set(s.name, blockers.sort());
      }
      if (Date.now() - start > PATIENCE_MS + backend.deadlockTimeoutMs) {
        for (const s of busy) if (!done.has(s.name) && !waiting.has(s.name)) lines.set(s.name, `${s.name} still running`);
        break;
      }
    }
    const out: string[] = [];
    for (const s of busy) {
      const w = waiting.get(s.name);
      if (done.has(s.name)) {
        finish(s);
        out.push(lines.get(s.name)!);
      } else if (lines.has(s.name)) out.push(lines.get(s.name)!); else if (w !== undefined) {
        const expected = waitFor.get(s.name);
        const holder = expected !== undefined && w.includes(expected) ? expected : w.join(', ');
        if (s.waitingFor !== holder) s.waitingSince = Date.now();
        s.waitingFor = holder;
        out.push(`${s.name} waits for ${holder}`);
      }
    }
    return out;
  };

  const cleanUp = async (backend: SqlBackend) => {
    const busy = [...sessions.values()].filter((s) => s.job !== undefined);
    for (const s of busy) s.connection++;
    await backend.terminate(busy.map((s) => s.name));
    for (const s of sessions.values()) {
      if (s.job !== undefined) await s.job.catch(() => undefined);
      else if (s.tx !== undefined) await backend.query(s.name, 'rollback');
      s.job = undefined;
      s.tx = undefined;
    }
  };

  const diverge = async (backend: SqlBackend, summary: string): Promise<SequenceResult> => {
    await cleanUp(backend);
    return { steps: applied, waits, deadlocks, answers, divergence: { summary, transcript: transcript.join('\n') } };
  };

  // The generated steps, then an abort of every transaction still open, so every wait ends.
  const queue: Step[] = [...steps];
  let closing = false;
  for (let i = 0; ; i++) {
    if (i >= queue.length) {
      if (closing) break;
      closing = true;
      for (const s of sessions.values()) if (s.tx !== undefined) queue.push({ kind: 'abort', session: s.name });
      if (i >= queue.length) break;
    }
    const step = queue[i]!;
    const waitingBefore = model.waiting();
    const isWaiting = (s: Session) => [...waitingBefore.keys()].some((k) => sessionOfKey(k) === s.name);

    // The model's event for the step, or nothing when the step does not apply.
    let event: Record<string, unknown> | undefined;
    let text = '';
    if (step.kind === 'crash') {
      const mine = [...sessions.values()].filter((s) => peerOf(s.name) === step.peer);
      if (mine.some((s) => s.tx !== undefined || s.job !== undefined)) event = { type: 'sys.peerCrashed', peer: step.peer, at: i };
      text = `${step.peer}* connection drop`;
    } else {
      const s = sessions.get(step.session)!;
      const from = peerOf(s.name);
      if (step.kind === 'exec' && !isWaiting(s) && s.job === undefined) {
        const tx = s.tx ?? `${s.name}.${s.n + 1}`;
        event = { type: 'db.exec', tx, ops: step.ops, from, at: i };
        text = `${s.name}> ${s.tx === undefined ? 'BEGIN; ' : ''}${opsText(step.ops)}`;
      } else if (step.kind === 'commit' && s.tx !== undefined && s.job === undefined) {
        event = { type: 'db.commit', tx: s.tx, from, at: i };
        text = `${s.name}> COMMIT`;
      } else if (step.kind === 'abort' && s.tx !== undefined) {
        event = { type: 'db.abort', tx: s.tx, from, at: i };
        text = `${s.name}> ${s.job !== undefined ? '(cancel) ' : ''}ROLLBACK`;
      } else if (step.kind === 'run' && s.tx === undefined && s.job === undefined) {
        event = { type: 'db.run', ref: `${s.name}.r${s.n + 1}`, ops: step.ops, from, at: i };
        text = `${s.name}> BEGIN; ${opsText(step.ops)}; COMMIT  -- autocommitted`;
      }
    }
    if (event === undefined) continue;
    const tried = model.try(event);
    const waitingAfter = model.waiting(tried.snapshot);
    // Two statements waiting on one transaction race each other in PostgreSQL (see EXCLUDED), and
    // so do two woken at once by one peer's crash, which ends several transactions together.
    const holders = [...waitingAfter.values()];
    if (new Set(holders).size !== holders.length) continue;
    if (step.kind === 'crash' && [...waitingBefore].filter(([w, h]) => peerOfKey(h) === step.peer && peerOfKey(w) !== step.peer).length > 1) continue;
    model.take(tried);
    applied++;

    // Bookkeeping on the model's side; the sessions' PostgreSQL jobs are started below.
    const s = step.kind === 'crash' ? undefined : sessions.get(step.session)!;
    const opening = step.kind === 'exec' && s!.tx === undefined;
    if (step.kind === 'exec' || step.kind === 'run') lastOps.set(step.session, step.ops);
    if (opening || step.kind === 'run') s!.n++;
    if (opening) s!.tx = `${s!.name}.${s!.n}`;
    if (step.kind === 'commit' || step.kind === 'abort') s!.tx = undefined;
    const expected = tried.replies.map((d) => answerLine(d, (session) => lastOps.get(session) ?? [])).sort();
    const expectedBy = new Map(expected.map((line) => [line.split(' ')[0]!, line]));
    const waitFor = new Map([...waitingAfter].map(([k, holder]) => [sessionOfKey(k), sessionOfKey(holder)]));
    for (const w of waitFor.keys()) if (![...waitingBefore.keys()].some((k) => sessionOfKey(k) === w)) waits++;
    deadlocks += expected.filter((line) => / deadlock/.test(line)).length;
    const modelLines = [...expected, ...[...waitFor].filter(([w]) => !expectedBy.has(w)).map(([w, h]) => `${w} waits for ${h}`)].sort();
    transcript.push(`${String(i).padStart(3)} ${text}`);
    for (const line of modelLines) transcript.push(`      model:      ${line}`);
    answers.push(`${i} ${text}`, ...modelLines.map((line) => `  ${line}`));
    if (step.kind === 'crash') for (const o of sessions.values()) if (peerOf(o.name) === step.peer) o.tx = undefined;
    if (backend === undefined) continue;

    // Before a step the model ends in a deadlock, let every current waiter's check run out.
    if (expected.some((line) => / deadlock/.test(line))) {
      for (const o of sessions.values()) {
        if (o.waitingSince !== undefined) {
          const left = o.waitingSince + backend.deadlockTimeoutMs * 2 + DEADLOCK_MARGIN_MS - Date.now();
          if (left > 0) await sleep(left);
        }
      }
    }

    // The same step on PostgreSQL.
    if (s === undefined) {
      const mine = [...sessions.values()].filter((o) => peerOf(o.name) === (step as { peer: string }).peer);
      // Counted before the terminate is sent, so a job woken by the first death sends nothing more.
      for (const o of mine) o.connection++;
      await backend.terminate(mine.map((o) => o.name));
      for (const o of mine) {
        if (o.job !== undefined) await o.job.catch(() => undefined);
        o.job = undefined;
        o.waitingSince = undefined;
        o.waitingFor = undefined;
      }
    } else if (step.kind === 'exec') {
      const ops = step.ops;
      const connection = s.connection;
      s.job = (async () => {
        if (opening) await send(backend, s, connection, 'begin');
        return `${s.name} result: ${(await runOps(backend, s, connection, ops)).join('; ')}`;
      })();
    } else if (step.kind === 'commit') {
      s.job = backend.query(s.name, 'commit').then((r) => `${s.name} commit: ${r.command === 'COMMIT' ? 'ok' : 'failed'}`);
    } else if (step.kind === 'abort') {
      if (s.job !== undefined) {
        await backend.cancel(s.name);
        await s.job.catch(() => undefined);
        s.job = undefined;
        s.waitingSince = undefined;
        s.waitingFor = undefined;
      }
      await backend.query(s.name, 'rollback');
    } else if (step.kind === 'run') {
      const ops = step.ops;
      const connection = s.connection;
      s.job = (async () => {
        await send(backend, s, connection, 'begin');
        const outcomes = await runOps(backend, s, connection, ops);
        const commit = await send(backend, s, connection, 'commit');
        return `${s.name} ran ${commit.command === 'COMMIT' ? 'ok' : 'failed'}: ${outcomes.join('; ')}`;
      })();
    }
    // Every session PostgreSQL is still working for: answered, or waiting for the same session.
    const pgLines = (await settle(backend, waitFor)).sort();
    if (pgLines.join('\n') !== modelLines.join('\n')) {
      for (const line of pgLines) transcript.push(`      PostgreSQL: ${line}`);
      return diverge(backend, `step ${i} (${text}): model [${modelLines.join(' | ')}], PostgreSQL [${pgLines.join(' | ')}]`);
    }
  }

  // Every table's committed rows.
  for (const t of schema.tables) {
    const mine = rowsText(schema, t.name, model.rows(t.name));
    answers.push(`final ${t.name}: ${mine}`);
    if (backend === undefined) continue;
    const theirs = rowsText(schema, t.name, await backend.committedRows(`select ${selectList(t)} from ${t.name}`));
    if (mine !== theirs) {
      transcript.push(`final ${t.name}: model ${mine}`, `final ${t.name}: PostgreSQL ${theirs}`);
      return diverge(backend, `final contents of ${t.name}: model ${mine}, PostgreSQL ${theirs}`);
    }
  }
  if (backend) await cleanUp(backend);
  return { steps: applied, waits, deadlocks, answers };
}
