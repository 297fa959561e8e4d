/// <reference types="node" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server serves dist/ from the same origin in production; in development Vite forwards /api to it so
// cookies and relative URLs behave the same in both. KOMA_API_TARGET points the proxy at a server elsewhere.
const apiTarget = process.env.KOMA_API_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Noto Sans JP ships as ~120 unicode-range slices; keep them as files rather than inlining any.
    assetsInlineLimit: 0,
  },
});
