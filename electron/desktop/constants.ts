// Names shared by the main process and the preload: the app's origin and the IPC channels.
// The preload bundles its own copy of the channel names (it may require nothing but electron).

export const APP_SCHEME = 'app';
export const APP_HOST = 'portcullis';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/** Native helpers, one channel each (CONVENTIONS.md "The bridge"). */
export const NATIVE_CHANNELS = {
  saveFile: 'native:save-file',
  openExternal: 'native:open-external',
  oauthListen: 'native:oauth-listen',
  oauthAuthorize: 'native:oauth-authorize',
} as const;
