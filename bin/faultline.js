#!/usr/bin/env node
// The faultline command. It loads tsx's ESM hooks so the TypeScript sources (and a user's own
// scenario files) run as they are, with no build step between an edit and a run.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
