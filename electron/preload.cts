// The preload: exposes one small object, window.portcullis, to the renderer through the context
// bridge: request() for the /api, subscribe() for pushed events. Nothing else reaches the page.

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

const API_CHANNEL = 'api:request';
const EVENT_CHANNEL = 'api:event';

interface BridgeRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | null;
}

contextBridge.exposeInMainWorld('portcullis', {
  request: (req: BridgeRequest) => ipcRenderer.invoke(API_CHANNEL, req),
  subscribe: (listener: (event: unknown) => void) => {
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    };
  },
});
