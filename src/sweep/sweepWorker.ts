// The body of a sweep's worker thread (src/sweep/sweepPool.ts starts it): it runs each task the pool
// posts, one at a time, and posts back the task's result or, for a task that threw, its error's
// message and stack, which the pool raises in the command's thread.
import { parentPort } from 'node:worker_threads';
import { TaskRunner, type SweepTask } from './sweepTask.ts';
import { userOutputToStderr } from '../base/userOutput.ts';

userOutputToStderr();
const runner = new TaskRunner();
const port = parentPort;
if (port === null) throw new Error('sweepWorker runs only as a worker thread');
port.on('message', (message: { readonly id: number; readonly task: SweepTask }) => {
  runner.run(message.task).then(
    (result) => port.postMessage({ id: message.id, result }),
    (error: unknown) => port.postMessage({ id: message.id, error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { name: 'Error', message: String(error) } }),
  );
});
