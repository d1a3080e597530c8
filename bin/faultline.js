#!/usr/bin/env node
// The faultline command in a source checkout: it loads tsx's ESM hooks so the TypeScript sources
// run as they are, with no build step between an edit and a run. It never uses dist/, so a
// build left over from an earlier edit cannot run in place of the sources. The installed
// package's command is dist/src/cli/bin.js, the compiled JavaScript, which needs no loader.
// Both run the same process entry (cli/runProcess.ts), which also ends the command quietly when
// the reader of its output goes away (`faultline list | head -1`).
import { register } from 'tsx/esm/api';

register();
const { runProcess } = await import('../src/cli/runProcess.ts');
await runProcess(process.argv.slice(2));
