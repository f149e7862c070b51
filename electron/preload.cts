// The preload (sandboxed, bundled to one CommonJS file that requires nothing but electron): exposes
// one small object, window.portcullis, through the context bridge — request() for the /api,
// subscribe() for pushed events, and the native helpers. Never a generic invoke(channel, ...).

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { NATIVE_CHANNELS } from './desktop/constants';
import { API_CHANNEL, EVENT_CHANNEL } from './ipc-bridge';

interface BridgeRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | null;
}

contextBridge.exposeInMainWorld('portcullis', {
  request: (req: BridgeRequest) => ipcRenderer.invoke(API_CHANNEL, req),
  /** Pushed events (scan progress, scan finished); the Electron event object never reaches the page. */
  subscribe: (listener: (event: unknown) => void) => {
    if (typeof listener !== 'function') throw new TypeError('subscribe() takes a function.');
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    };
  },
  /** Save a report through the system's save dialog. */
  saveFile: (input: { fileName: string; data: Uint8Array }) => ipcRenderer.invoke(NATIVE_CHANNELS.saveFile, input),
  /** Open an allowlisted https link in the system browser. */
  openExternal: (url: string) => ipcRenderer.invoke(NATIVE_CHANNELS.openExternal, { url }),
  /** Social sign-in in the system browser with a loopback redirect (RFC 8252). */
  oauth: {
    listen: () => ipcRenderer.invoke(NATIVE_CHANNELS.oauthListen),
    authorize: (authorizationUrl: string) => ipcRenderer.invoke(NATIVE_CHANNELS.oauthAuthorize, { authorizationUrl }),
  },
});
