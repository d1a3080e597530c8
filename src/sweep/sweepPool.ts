// Worker threads that run a sweep's tasks (src/sweep/sweepTask.ts) side by side, one task per thread at
// a time, in the order they were asked for. Each thread loads the scenarios its tasks name once,
// and keeps them. The command that asked merges the results in its own order, so what it prints
// and writes does not depend on which thread ran what, or when.
//
// In a source checkout the engine is TypeScript run through tsx; a new thread has no loader of
// its own, so it registers tsx's before it imports its body. The compiled package needs none.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { InputError } from '../base/inputError.ts';
import type { SweepTask, TaskResult } from './sweepTask.ts';

const OWN_EXT = extname(fileURLToPath(import.meta.url));
const BODY = new URL(`./sweepWorker${OWN_EXT}`, import.meta.url).href;
const LOADER = OWN_EXT === '.ts' ? tsxEsmApi() : undefined;

/** Where tsx's ESM API is: its `import` entry, which registers hooks for the thread that imports it. */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
  return new URL(exports['./esm/api']!.import.default, pathToFileURL(manifest)).href;
}

// A classic script, so it can run from a string; it imports the loader and the body as modules.
const BOOT = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  await import(workerData.body);
})();
`;

/** What a task's caller hears as its turn comes. */
export interface TaskHooks {
  /** Asked when a thread is free for the task: a task no longer wanted is settled as undefined, unrun. */
  readonly skip?: () => boolean;
  /** Told when a thread takes the task. */
  readonly onStart?: () => void;
  /** Told when its thread has answered. */
  readonly onEnd?: () => void;
}

interface Pending {
  readonly id: number;
  readonly task: SweepTask;
  readonly hooks: TaskHooks;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

export class SweepPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private failure: Error | undefined;
  private closing = false;

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) this.idle.push(this.start());
  }

  private start(): Worker {
    const worker = new Worker(BOOT, { eval: true, workerData: { loader: LOADER, body: BODY } });
    worker.on('message', (m: { id: number; result?: unknown; error?: { name: string; message: string; stack?: string } }) => {
      const p = this.busy.get(worker);
      if (!p || p.id !== m.id) return;
      this.busy.delete(worker);
      p.hooks.onEnd?.();
      if (m.error) {
        // Bad input stays bad input (one line, exit code 2); anything else keeps its stack.
        const e = m.error.name === 'InputError' ? new InputError(m.error.message) : Object.assign(new Error(m.error.message), { name: m.error.name });
        if (m.error.stack) e.stack = m.error.stack;
        p.reject(e);
      } else p.resolve(m.result);
      this.idle.push(worker);
      this.dispatch();
    });
    // A thread that dies takes its task with it, and the pool can no longer promise every task.
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      if (this.closing) return;
      const ref = this.busy.get(worker)?.task.ref;
      // Only a scenario's own code ends a thread this way: its build() or an observer called process.exit.
      this.fail(new InputError(`${ref === undefined ? 'a sweep worker' : `malformed scenario ${ref}: a sweep worker running it`} ended with exit code ${code} (does its code call process.exit?)`));
    });
    return worker;
  }

  /** Stops the pool at its first failure: every task waiting or running is refused with it, and every thread ended. */
  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const p of [...this.busy.values(), ...this.queue.splice(0)]) p.reject(error);
    this.busy.clear();
    void this.close();
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const p = this.queue.shift()!;
      if (p.hooks.skip?.()) {
        this.idle.push(worker);
        p.resolve(undefined);
        continue;
      }
      this.busy.set(worker, p);
      p.hooks.onStart?.();
      worker.postMessage({ id: p.id, task: p.task });
    }
  }

  /** Runs a task on the next free thread. */
  run<T extends SweepTask>(task: T, hooks: TaskHooks = {}): Promise<TaskResult<T> | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, hooks, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Ends every thread; tasks waiting or running are refused. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.failure ??= new Error('the sweep pool closed');
    for (const p of [...this.busy.values(), ...this.queue.splice(0)]) p.reject(this.failure);
    const all = [...this.idle, ...this.busy.keys()];
    this.busy.clear();
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }
}
