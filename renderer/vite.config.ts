/// <reference types="vitest/config" />
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from '../scripts/precompress.ts';

const root = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(root, '..', 'dist', 'renderer');

/** Brotli and gzip copies of the built text files, sent by the team server (electron/server.ts). */
const precompressed: Plugin = {
  name: 'portcullis-precompress',
  apply: 'build',
  closeBundle() {
    precompress(outDir);
  },
};

export default defineConfig({
  root,
  // Absolute asset URLs: nested routes (/guide/:id) load the same index.html from the server's SPA
  // fallback, and the desktop's app:// scheme is a standard origin too.
  base: '/',
  plugins: [react(), precompressed],
  build: {
    outDir,
    emptyOutDir: true,
    // Maps for our own debugging only: no sourceMappingURL in the files, and the server never sends them.
    sourcemap: 'hidden',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:4780' },
  },
});
