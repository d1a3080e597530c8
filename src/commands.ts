// The command table: each command of the contract, registered with the CLI. Kept apart from
// cli.ts so the parser and the exit-code mapping stay small.
import { registerCommand } from './cli.ts';
import { calcCommand } from './cli/calcCommand.ts';
import { exploreCommand } from './cli/exploreCommand.ts';
import { listCommand } from './cli/list.ts';
import { replayCommand } from './cli/replayCommand.ts';
import { windowsCommand } from './cli/windowsCommand.ts';

registerCommand('list', listCommand);
registerCommand('windows', windowsCommand);
registerCommand('explore', exploreCommand);
registerCommand('replay', replayCommand);
registerCommand('calc', calcCommand);
