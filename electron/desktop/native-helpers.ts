// The native helpers of the bridge, one IPC channel each: save a report through the system's save
// dialog, open an allowed link in the system browser, and the loopback half of social sign-in. Each
// handler checks the sender frame, validates its input and answers an envelope; none throws.

import path from 'node:path';
import { isTrustedSender, type IpcInvokeEventLike, type IpcMainLike } from '../ipc-bridge';
import { NATIVE_CHANNELS } from './constants';
import { checkExternalUrl } from './external-links';
import type { LoopbackAuthorizer, LoopbackResult } from './oauth-loopback';

export type NativeResult<T extends object = object> = ({ ok: true } & T) | { ok: false; message: string };

/** What a report download may be saved as. */
const SAVE_TYPES: Record<string, string> = {
  pdf: 'PDF document',
  json: 'JSON',
  sarif: 'SARIF log',
  html: 'HTML page',
  xml: 'JUnit XML',
  csv: 'CSV',
  txt: 'Text',
};
export const SAVE_MAX_BYTES = 100 * 1024 * 1024;
const FILE_NAME_MAX = 200;

export interface SaveDialogLike {
  (options: { title: string; defaultPath: string; filters: { name: string; extensions: string[] }[] }): Promise<{ canceled: boolean; filePath?: string }>;
}

export interface NativeDeps {
  appOrigin: string;
  showSaveDialog: SaveDialogLike;
  writeFile(file: string, data: Uint8Array): Promise<void>;
  /** Where the save dialog starts. */
  downloadsDir: string;
  openExternal(url: string): Promise<void>;
  loopback: LoopbackAuthorizer;
  log?(message: string, fields?: Record<string, unknown>): void;
}

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** A bare file name with a known extension: no directories, no device names, no control characters. */
export function checkFileName(value: unknown): { ok: true; name: string; ext: string } | { ok: false } {
  if (typeof value !== 'string') return { ok: false };
  const name = value.trim();
  if (name.length === 0 || name.length > FILE_NAME_MAX || name.startsWith('.')) return { ok: false };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f/\\:*?"<>|]/.test(name)) return { ok: false };
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(name)) return { ok: false };
  const ext = path.extname(name).slice(1).toLowerCase();
  if (!SAVE_TYPES[ext]) return { ok: false };
  return { ok: true, name, ext };
}

export function createNativeHandlers(deps: NativeDeps) {
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (event: IpcInvokeEventLike, ...args: A): Promise<R | NativeResult> => {
      if (!isTrustedSender(event.senderFrame, deps.appOrigin)) return fail('Refused: unknown sender.');
      try {
        return await fn(...args);
      } catch (err) {
        deps.log?.('Native helper failed', { error: err instanceof Error ? err.message : String(err) });
        return fail('Something went wrong on our side. Please try again.');
      }
    };

  return {
    [NATIVE_CHANNELS.saveFile]: guard(async (input: unknown): Promise<NativeResult<{ saved: boolean; fileName?: string }>> => {
      if (!input || typeof input !== 'object') return fail('Nothing to save.');
      const { fileName, data } = input as { fileName?: unknown; data?: unknown };
      const checked = checkFileName(fileName);
      if (!checked.ok) return fail('That file name cannot be used.');
      if (!(data instanceof Uint8Array)) return fail('Nothing to save.');
      if (data.byteLength > SAVE_MAX_BYTES) return fail('The file is too large to save.');
      const choice = await deps.showSaveDialog({
        title: 'Save report',
        defaultPath: path.join(deps.downloadsDir, checked.name),
        filters: [{ name: SAVE_TYPES[checked.ext]!, extensions: [checked.ext] }],
      });
      if (choice.canceled || !choice.filePath) return { ok: true, saved: false };
      // The user picked this path in the system dialog: that is the authorisation to write it.
      await deps.writeFile(choice.filePath, data);
      return { ok: true, saved: true, fileName: path.basename(choice.filePath) };
    }),

    [NATIVE_CHANNELS.openExternal]: guard(async (input: unknown): Promise<NativeResult<{ opened: true }>> => {
      const url = input && typeof input === 'object' ? (input as { url?: unknown }).url : undefined;
      const link = checkExternalUrl(url);
      if (!link.ok) {
        deps.log?.('Refused to open an external link', { reason: link.reason });
        return fail('This link cannot be opened from Portcullis.');
      }
      await deps.openExternal(link.url); // eng-disable OPEN_EXTERNAL_JS_CHECK (link.url passed checkExternalUrl)
      return { ok: true, opened: true };
    }),

    [NATIVE_CHANNELS.oauthListen]: guard(async (): Promise<NativeResult<{ redirectUri: string }>> => {
      const { redirectUri } = await deps.loopback.listen();
      return { ok: true, redirectUri };
    }),

    [NATIVE_CHANNELS.oauthAuthorize]: guard(async (input: unknown): Promise<LoopbackResult> => {
      const url = input && typeof input === 'object' ? (input as { authorizationUrl?: unknown }).authorizationUrl : undefined;
      return deps.loopback.authorize(url);
    }),
  };
}

/** Registers every native helper; returns the function that removes them. */
export function registerNativeHelpers(ipc: IpcMainLike, deps: NativeDeps): () => void {
  const handlers = createNativeHandlers(deps);
  for (const [channel, handler] of Object.entries(handlers)) {
    ipc.handle(channel, (event, ...args) => (handler as (e: IpcInvokeEventLike, ...a: unknown[]) => Promise<unknown>)(event, ...args));
  }
  return () => {
    for (const channel of Object.keys(handlers)) ipc.removeHandler(channel);
  };
}
