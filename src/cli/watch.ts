// `--watch`: run the command, then run it again each time one of its scenario files changes,
// until interrupted. Each run is a fresh process with the same arguments but --watch, so a
// changed file (and whatever it imports) is loaded anew and a run that is still going when the
// next change comes is stopped first. The folders holding the files are watched rather than the
// files themselves, since an editor that saves by writing a new file and renaming it over the
// old one would end a watch on the file. Real timers and fs.watch live here, in the command
// line, never in the engine.
import { spawn, type ChildProcess } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { CliIo } from './io.ts';

/** How long the files must be still after a change before the run starts: an editor's save is several writes. */
const SETTLE_MS = 150;

/** The arguments without `--watch`, to run the command once. */
export function withoutWatch(args: readonly string[]): string[] {
  return args.filter((a) => a !== '--watch');
}

/**
 * Runs the command line `args` (the command first) now and again on every change of `files`.
 * Interrupted (SIGINT or SIGTERM), it settles with the exit code of the last run that finished
 * (0 when none did): a watch ended right after a failing run is a failure to whatever started it.
 */
export function watchAndRun(args: readonly string[], files: readonly string[], io: CliIo): Promise<number> {
  const once = [...process.execArgv, process.argv[1]!, ...withoutWatch(args)];
  const byFolder = new Map<string, Set<string>>();
  for (const f of files.map((x) => resolve(x))) byFolder.set(dirname(f), new Set([...(byFolder.get(dirname(f)) ?? []), basename(f)]));
  let child: ChildProcess | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The exit code of the last run that finished. */
  let last = 0;
  const start = () => {
    child = spawn(process.execPath, once, { stdio: 'inherit' });
    const ran = child;
    ran.on('exit', (code, signal) => {
      if (child === ran && signal === null) last = code ?? 0;
      if (child === ran) io.err(`faultline: ${signal === null ? `exit code ${code}` : `stopped`}; watching ${files.length === 1 ? files[0] : `${files.length} files`} for changes (Ctrl-C ends)`);
    });
  };
  const rerun = (name: string) => {
    const ran = child;
    child = undefined;
    if (ran !== undefined && ran.exitCode === null && ran.signalCode === null) {
      ran.once('exit', () => start());
      ran.kill('SIGTERM');
    } else start();
    io.err(`faultline: ${name} changed; running again`);
  };
  const watchers: FSWatcher[] = [...byFolder].map(([folder, names]) =>
    watch(folder, (_event, name) => {
      if (name === null || !names.has(name.toString())) return;
      clearTimeout(timer);
      timer = setTimeout(() => rerun(name.toString()), SETTLE_MS);
    }),
  );
  start();
  return new Promise((done) => {
    const stop = () => {
      clearTimeout(timer);
      for (const w of watchers) w.close();
      child?.kill('SIGTERM');
      done(last);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
