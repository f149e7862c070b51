// What the import worker is asked to do and what it answers (electron/importer/import-worker.ts runs
// it, import-runner.ts sends it): plain data both ways, so it crosses a thread by structured clone.
// `runImportJob` is the import itself, run in the worker; errors become `JobFailure`s and back again.

import { guardValueCount } from './count-values';
import { ImportError, ImportTooLargeError } from './errors';
import { importApiDocument } from './index';
import { importGraphqlSchema, introspectionIn, readGraphqlIntrospection } from './read-graphql';
import { prepareEndpoint } from '../store/endpoint-row';
import type { ImportResult, PreparedImport } from './result';

export type ImportJob =
  /**
   * An uploaded, pasted or CLI-given file: its bytes are handed over (transferred), or an uploaded Blob
   * is shared with the worker, which reads it there (a 25 MB copy the event loop does not make).
   */
  | { kind: 'document'; bytes: Uint8Array | Blob; filename?: string; prepare: boolean }
  /**
   * A GraphQL server's answer to the introspection query, as text: parsed in the worker too (a
   * schema's answer runs to megabytes). `path` is the endpoint's path, `baseUrl` its origin.
   */
  | { kind: 'introspection-answer'; answer: string; name: string; baseUrl: string; path: string; prepare: boolean };

/** A job's result: with `prepare`, endpoints as the store writes them (what crosses the thread cheaply). */
export type JobResult = ImportResult | PreparedImport;

export interface JobFailure {
  /** `internal`: a bug or a broken worker, not the file. */
  kind: 'import' | 'too-large' | 'internal';
  message: string;
  location?: string;
  stack?: string;
}

/** Worker -> runner, tagged with the job's id. */
export type WorkerMessage =
  /** Sent once, when the worker has loaded and listens (id 0). */
  | { id: 0; type: 'ready' }
  | { id: number; type: 'unexpected'; operation: string; error: string }
  | { id: number; type: 'done'; result: JobResult | null; heapMb: number }
  | { id: number; type: 'failed'; failure: JobFailure; heapMb: number };

/**
 * Runs one job here. `null` is an introspection answer that holds no schema: the caller explains why
 * (its errors, its status) from the answer itself.
 */
export async function runImportJob(job: ImportJob, onUnexpectedError: (err: unknown, operation: string) => void): Promise<JobResult | null> {
  const result = await importOf(job, onUnexpectedError);
  return result && job.prepare ? { ...result, endpoints: result.endpoints.map(prepareEndpoint) } : result;
}

async function importOf(job: ImportJob, onUnexpectedError: (err: unknown, operation: string) => void): Promise<ImportResult | null> {
  switch (job.kind) {
    case 'document': {
      const bytes = job.bytes instanceof Uint8Array ? job.bytes : new Uint8Array(await job.bytes.arrayBuffer());
      return importApiDocument(bytes, { filename: job.filename, onUnexpectedError });
    }
    case 'introspection-answer': {
      let value: unknown;
      guardValueCount(job.answer, 'json');
      try {
        value = JSON.parse(job.answer);
      } catch {
        return null;
      }
      const found = introspectionIn(value);
      if (!found || found.where !== '/data') return null;
      const schema = readGraphqlIntrospection(found);
      return importGraphqlSchema(schema, { name: job.name, baseUrl: job.baseUrl, path: job.path, format: 'graphql-introspection', onUnexpectedError });
    }
  }
}

export function failureOf(err: unknown): JobFailure {
  if (err instanceof ImportTooLargeError) return { kind: 'too-large', message: err.message };
  if (err instanceof ImportError) return { kind: 'import', message: err.message, location: err.location };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: 'internal', message: e.message, stack: e.stack };
}

/** The error the caller sees: the same classes an in-process import throws. */
export function errorOf(failure: JobFailure): Error {
  switch (failure.kind) {
    case 'too-large':
      return new ImportTooLargeError(failure.message);
    case 'import': {
      // The message already names the location; the constructor would add it again.
      const err = new ImportError(failure.message);
      Object.defineProperty(err, 'location', { value: failure.location ?? '' });
      return err;
    }
    case 'internal': {
      const err = new Error(`The import failed inside its worker: ${failure.message}`);
      if (failure.stack) err.stack = `${err.message}\n--- in the import worker ---\n${failure.stack}`;
      return err;
    }
  }
}
