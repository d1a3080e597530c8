#!/usr/bin/env node
// The faultline command in a source checkout: it loads tsx's ESM hooks so the TypeScript sources
// run as they are, with no build step between an edit and a run. It never uses dist/, so a
// build left over from an earlier edit cannot run in place of the sources. The installed
// package's command is dist/src/cli/bin.js, the compiled JavaScript, which needs no loader.
import { register } from 'tsx/esm/api';

// A reader that stops early (`faultline list | head -1`) closes the pipe: that ends the output,
// it is not an error to report with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
register();
const { runProcess } = await import('../src/cli/runProcess.ts');
await runProcess(process.argv.slice(2));
