import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built to static files that the API serves under /app/ (packages/http/src/console-app.ts).
export default defineConfig({
  base: '/app/',
  plugins: [react()],
  // Workspace packages (@travelops/client) are bundled from their TypeScript source.
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Evergreen browsers only: no polyfill script for module preloads.
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
  // `pnpm --filter @travelops/console dev`: the API on :3000, the console on Vite's dev server.
  server: {
    proxy: Object.fromEntries(['/auth', '/workspaces'].map((path) => [path, 'http://localhost:3000'])),
  },
});
