// A real `portcullis serve` process on a free loopback port, for benchmarks (needs `npm run build:core`).

import { spawn } from 'node:child_process';

export interface ServeProcess {
  url: string;
  /** From spawn to "listening on". */
  startMs: number;
  stop(): Promise<void>;
}

export function startServe(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/portcullis.js', 'serve', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, ...env },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (c) => reject(new Error(`serve exited ${c}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (!m) return;
      child.removeAllListeners('exit');
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        url: m[1]!,
        startMs: performance.now() - t0,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
