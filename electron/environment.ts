// Facts about where this process runs, for GET /api/environment.

import fs from 'node:fs';

let cached: boolean | undefined;

/** True inside a container (Docker, Podman, containerd, Kubernetes). */
export function isContainer(): boolean {
  if (cached !== undefined) return cached;
  cached = false;
  try {
    if (fs.existsSync('/.dockerenv') || fs.existsSync('/run/.containerenv')) cached = true;
    else if (fs.existsSync('/proc/1/cgroup')) {
      cached = /docker|containerd|kubepods|libpod/.test(fs.readFileSync('/proc/1/cgroup', 'utf8'));
    }
  } catch {
    cached = false;
  }
  return cached;
}
