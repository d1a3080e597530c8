#!/usr/bin/env node
// The faultline command. It loads tsx's ESM hooks so the TypeScript sources (and a user's own
// scenario files) run as they are, with no build step between an edit and a run.
import { register } from 'tsx/esm/api';

// A reader that stops early (`faultline list | head -1`) closes the pipe: that ends the output,
// it is not an error to report with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
