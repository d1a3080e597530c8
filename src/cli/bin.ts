#!/usr/bin/env node
// The faultline executable of the installed package: the compiled command line, with nothing
// loaded before it (no TypeScript loader), so `faultline --version` starts as fast as Node does.
import { runProcess } from './runProcess.ts';

await runProcess(process.argv.slice(2));
