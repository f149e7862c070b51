// Entry of the import worker thread (bundled to dist/<shell>/import-worker.cjs): reads one API
// description at a time, off the server's event loop, under the memory limit its runner gave it.
// The runner (import-runner.ts) times it and terminates it when it runs too long.

import { parentPort } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { failureOf, runImportJob, type ImportJob, type WorkerMessage } from './import-job';

if (!parentPort) throw new Error('import-worker runs as a worker thread of the import runner.');
const port = parentPort;

/** The heap this worker holds after a job: the runner retires a worker that grew large rather than keep it warm. */
const heapMb = () => Math.round(getHeapStatistics().total_heap_size / 1024 / 1024);

port.on('message', async ({ id, job }: { id: number; job: ImportJob }) => {
  const send = (message: WorkerMessage) => port.postMessage(message);
  try {
    const result = await runImportJob(job, (err, operation) => send({ id, type: 'unexpected', operation, error: String((err as Error)?.stack ?? err) }));
    send({ id, type: 'done', result, heapMb: heapMb() });
  } catch (err) {
    send({ id, type: 'failed', failure: failureOf(err), heapMb: heapMb() });
  }
});

port.postMessage({ id: 0, type: 'ready' } satisfies WorkerMessage);
