// CPU load for tests that must hold on a busy machine: busy-loop child processes (like `stress -c N`),
// killed by their pid when the test is done.

import { spawn, type ChildProcess } from 'node:child_process';

export interface CpuLoad {
  stop(): Promise<void>;
}

/** Starts `workers` Node processes that spin forever. */
export function startCpuLoad(workers = 2): CpuLoad {
  const children: ChildProcess[] = [];
  for (let i = 0; i < workers; i += 1) children.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  return {
    async stop() {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
