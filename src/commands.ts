// The command table: each command of the contract, registered with the CLI. Kept apart from
// cli.ts so the parser and the exit-code mapping stay small and the commands can grow.
import { registerCommand } from './cli.ts';

registerCommand('list', () => 0);
