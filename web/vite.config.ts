import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

/** The memory browser: a static bundle in web/dist that the controller serves at "/". */
export default defineConfig({
  base: '/',
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // Everything is local (no CDN, no remote fonts); nothing is inlined as data: URLs.
    assetsInlineLimit: 0,
  },
  server: {
    // `npm run dev:web` proxies the API to a controller on :8080.
    proxy: { '/api': 'http://127.0.0.1:8080', '/health': 'http://127.0.0.1:8080', '/stats': 'http://127.0.0.1:8080' },
  },
});
