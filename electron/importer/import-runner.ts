// Runs imports off the event loop (issue 30, item 3): every API description a user uploads, pastes or
// has fetched is read in a worker thread with a memory limit and a deadline, so a large one neither
// stalls the server nor grows it past its budget. A worker that runs out of memory or time is
// terminated and the caller gets an ImportTooLargeError saying which. A few workers read at once;
// more jobs wait in line, a full line is refused (ImportsBusyError). One idle worker is kept started
// so a small import does not pay for a thread's start. See docs/decisions.md ("Imports run in a worker").

import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SERVER_MESSAGES } from '../../shared/messages';
import { ImportTooLargeError } from './errors';
import { errorOf, type ImportJob, type JobResult, type WorkerMessage } from './import-job';
import { importWorkerFile } from './import-worker-file';
import type { ImportOptions } from './index';
import type { ImportResult, PreparedImport } from './result';

export interface ImportRunnerSettings {
  /** Memory one import may use, in MB (PORTCULLIS_IMPORT_MEMORY_MB): the worker's heap limits come from it. */
  memoryMb: number;
  /** Time one import may take to read, in ms (PORTCULLIS_IMPORT_READ_TIMEOUT_MS). */
  deadlineMs: number;
  /** Imports read at once (PORTCULLIS_IMPORT_WORKERS); more wait in line. */
  maxWorkers: number;
  /** Imports that may wait for a worker; one more is refused as busy. */
  maxQueued: number;
  /** Idle workers kept started between imports. */
  keepWarm: number;
  /** A worker whose heap is larger than this after an import is retired rather than kept warm. */
  retireHeapMb: number;
  /** The bundled worker script; by default found next to the bundle (importWorkerFile). */
  workerFile?: string;
}

export const DEFAULT_IMPORT_SETTINGS: ImportRunnerSettings = {
  memoryMb: 500,
  deadlineMs: 60_000,
  maxWorkers: Math.min(2, os.availableParallelism()),
  maxQueued: 16,
  keepWarm: 1,
  retireHeapMb: 96,
};

/** The young generation's share of the budget: 16 MB semi-spaces (V8's default), so parsing stays fast. */
const YOUNG_GENERATION_MB = 48;
/** What a worker holds beyond its heap: code, stacks, the file's bytes (an ArrayBuffer outside the heap). */
const OUTSIDE_HEAP_MB = 52;

/** The worker's V8 limits for a memory budget: old generation = budget - young - outside the heap. */
export function workerResourceLimits(memoryMb: number): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } {
  return { maxOldGenerationSizeMb: Math.max(16, memoryMb - YOUNG_GENERATION_MB - OUTSIDE_HEAP_MB), maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
}

/**
 * A V8 heap flag given to the whole process (command line or NODE_OPTIONS), which replaces every worker's
 * own heap limit (nodejs/node#43991): the import workers would then be bounded by it, not by their budget.
 */
export function heapFlagOf(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env.NODE_OPTIONS ?? ''): string | null {
  return [...execArgv, ...nodeOptions.split(/\s+/)].find((a) => /^--max[-_]old[-_]space[-_]size(=|$)/.test(a)) ?? null;
}

/** More imports than the line holds: answered 503, try again. */
export class ImportsBusyError extends Error {
  constructor() {
    super(SERVER_MESSAGES.importsBusy);
    this.name = 'ImportsBusyError';
  }
}

function envInt(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  return n;
}

/** The defaults, changed by PORTCULLIS_IMPORT_MEMORY_MB, _READ_TIMEOUT_MS and _WORKERS; a wrong value stops the start. */
export function importSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ImportRunnerSettings {
  return {
    ...DEFAULT_IMPORT_SETTINGS,
    memoryMb: envInt(env, 'PORTCULLIS_IMPORT_MEMORY_MB', 128, 16_384) ?? DEFAULT_IMPORT_SETTINGS.memoryMb,
    deadlineMs: envInt(env, 'PORTCULLIS_IMPORT_READ_TIMEOUT_MS', 1_000, 3_600_000) ?? DEFAULT_IMPORT_SETTINGS.deadlineMs,
    maxWorkers: envInt(env, 'PORTCULLIS_IMPORT_WORKERS', 1, 64) ?? DEFAULT_IMPORT_SETTINGS.maxWorkers,
  };
}

export interface IntrospectionTarget {
  /** The API's name. */
  name: string;
  /** The GraphQL endpoint's origin and path. */
  baseUrl: string;
  path: string;
}

interface Pending {
  job: ImportJob;
  onUnexpectedError?: ImportOptions['onUnexpectedError'];
  resolve(result: JobResult | null): void;
  reject(err: Error): void;
}

interface Running extends Pending {
  id: number;
  timer: ReturnType<typeof setTimeout>;
}

interface Slot {
  worker: Worker;
  running: Running | null;
  /** Settles when the worker has loaded its bundle (or could not). */
  ready: Promise<void>;
  loaded: boolean;
}

export class ImportRunner {
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private file: string | null;
  private closed = false;

  constructor(readonly settings: ImportRunnerSettings = DEFAULT_IMPORT_SETTINGS) {
    this.file = settings.workerFile ? path.resolve(settings.workerFile) : null;
  }

  /**
   * Reads a file in a worker; its endpoints come back prepared for the store. Bytes are handed over
   * (do not use them afterwards); an uploaded Blob is shared, and read in the worker.
   */
  async importDocument(bytes: Uint8Array | Blob, options: ImportOptions = {}): Promise<PreparedImport> {
    // A slice shares the Blob's data; a File itself is not cloneable everywhere.
    const data = bytes instanceof Uint8Array ? bytes : bytes.slice();
    return (await this.run({ kind: 'document', bytes: data, filename: options.filename, prepare: true }, options.onUnexpectedError)) as PreparedImport;
  }

  /** Imports a GraphQL server's introspection answer (its body text) to store; null when it holds no schema. */
  async importIntrospectionAnswer(answer: string, target: IntrospectionTarget): Promise<PreparedImport | null> {
    return (await this.run({ kind: 'introspection-answer', answer, ...target, prepare: true })) as PreparedImport | null;
  }

  /**
   * The operations of an introspection answer as endpoint objects, for a scan to use at once (its answers
   * are at most the scan's body limit, 1 MB); null when the answer holds no schema.
   */
  async readIntrospectionAnswer(answer: string, target: IntrospectionTarget): Promise<ImportResult | null> {
    return (await this.run({ kind: 'introspection-answer', answer, ...target, prepare: false })) as ImportResult | null;
  }

  /** Starts the warm workers now rather than at the first import; resolves once they have loaded. */
  warm(): Promise<void> {
    while (!this.closed && this.slots.size < Math.min(this.settings.keepWarm, this.settings.maxWorkers)) this.idle(this.spawn());
    return Promise.all([...this.slots].map((s) => s.ready)).then(() => undefined);
  }

  /** Workers started (busy or idle), for tests and the benchmark. */
  get workerCount(): number {
    return this.slots.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('The import was stopped: the server is shutting down.'));
    await Promise.all([...this.slots].map((slot) => this.retire(slot)));
  }

  private run(job: ImportJob, onUnexpectedError?: ImportOptions['onUnexpectedError']): Promise<JobResult | null> {
    if (this.closed) return Promise.reject(new Error('The import runner is closed.'));
    return new Promise((resolve, reject) => {
      const pending: Pending = { job, onUnexpectedError, resolve, reject };
      const slot = this.freeSlot();
      if (slot) this.start(slot, pending);
      else if (this.queue.length < this.settings.maxQueued) this.queue.push(pending);
      else reject(new ImportsBusyError());
    });
  }

  /** An idle worker, or a new one while fewer than maxWorkers run. */
  private freeSlot(): Slot | null {
    for (const slot of this.slots) if (!slot.running) return slot;
    return this.slots.size < this.settings.maxWorkers ? this.spawn() : null;
  }

  private spawn(): Slot {
    this.file ??= importWorkerFile();
    const worker = new Worker(this.file, {
      name: 'portcullis-import',
      resourceLimits: workerResourceLimits(this.settings.memoryMb),
      // The parent's flags (a test runner's, --max-old-space-size) are not the worker's business.
      execArgv: [],
    });
    let loaded = () => {};
    const slot: Slot = { worker, running: null, loaded: false, ready: new Promise<void>((resolve) => (loaded = resolve)) };
    this.slots.add(slot);
    worker.once('exit', () => loaded());
    worker.on('message', (m: WorkerMessage) => {
      if (m.type !== 'ready') return this.onMessage(slot, m);
      slot.loaded = true;
      if (!slot.running) this.idle(slot);
      loaded();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(slot, outOfMemory ? new ImportTooLargeError(SERVER_MESSAGES.importOutOfMemory(this.settings.memoryMb)) : new Error(`The import worker failed: ${err.message}`));
    });
    worker.on('exit', (code) => {
      this.fail(slot, new Error(`The import worker stopped unexpectedly (exit code ${code}).`));
      this.slots.delete(slot);
      this.pump();
    });
    return slot;
  }

  private start(slot: Slot, pending: Pending): void {
    const id = this.nextId++;
    const timer = setTimeout(() => {
      this.fail(slot, new ImportTooLargeError(SERVER_MESSAGES.importTimedOut(this.settings.deadlineMs / 1000)));
    }, this.settings.deadlineMs);
    timer.unref();
    slot.running = { ...pending, id, timer };
    // A busy worker keeps the process alive (the CLI awaits it); an idle one does not.
    slot.worker.ref();
    const { job } = pending;
    // An upload's own buffer moves to the worker instead of being copied; a view into a larger (pooled) one is copied.
    const bytes = job.kind === 'document' && job.bytes instanceof Uint8Array ? job.bytes : null;
    const transfer = bytes && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
    try {
      slot.worker.postMessage({ id, job }, transfer);
    } catch (err) {
      // Not transferable or not cloneable: the job cannot reach a worker at all.
      this.fail(slot, err as Error);
    }
  }

  private onMessage(slot: Slot, m: Exclude<WorkerMessage, { type: 'ready' }>): void {
    const running = slot.running;
    if (!running || running.id !== m.id) return;
    if (m.type === 'unexpected') {
      running.onUnexpectedError?.(new Error(m.error), m.operation);
      return;
    }
    clearTimeout(running.timer);
    slot.running = null;
    if (m.type === 'done') running.resolve(m.result);
    else running.reject(errorOf(m.failure));
    const warmIdle = [...this.slots].filter((s) => s !== slot && !s.running).length;
    if (this.closed || m.heapMb > this.settings.retireHeapMb || (warmIdle >= this.settings.keepWarm && this.queue.length === 0)) void this.retire(slot);
    else this.idle(slot);
    this.pump();
  }

  /** The worker's job ends with `err`; the worker itself is of no further use (it ran out, or failed). */
  private fail(slot: Slot, err: Error): void {
    const running = slot.running;
    if (running) {
      clearTimeout(running.timer);
      slot.running = null;
      running.reject(err);
    }
    void this.retire(slot);
  }

  /** An idle worker does not keep the process alive; one still loading does (warm() is awaited on it). */
  private idle(slot: Slot): void {
    if (slot.loaded) slot.worker.unref();
  }

  private async retire(slot: Slot): Promise<void> {
    if (!this.slots.delete(slot)) return;
    await slot.worker.terminate();
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot: Slot | null;
      try {
        slot = this.freeSlot();
      } catch (err) {
        // No worker can start (its file is missing): every waiting import would fail the same way.
        for (const p of this.queue.splice(0)) p.reject(err as Error);
        return;
      }
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }
}

let shared: ImportRunner | null = null;

/** The process's runner: worker threads are a process's resource, so every core and command of it shares one. */
export function importRunner(): ImportRunner {
  shared ??= new ImportRunner(importSettingsFromEnv());
  return shared;
}
