/// <reference types="vitest/config" />
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root,
  // Absolute asset URLs: nested routes (/guide/:id) load the same index.html from the server's SPA
  // fallback, and the desktop's app:// scheme is a standard origin too.
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.resolve(root, '..', 'dist', 'renderer'),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:4780' },
  },
});
