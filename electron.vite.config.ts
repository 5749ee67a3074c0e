import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Three parts: the main process (Electron entry + headless entry share one bundle graph),
// the sandboxed preload (CommonJS, as sandboxed preloads must be), and the React renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron-main.ts'),
          headless: resolve(__dirname, 'src-main/headless.ts'),
          // a worker thread's file (market/sim/history-pool.ts looks for it next to the chunks' folder)
          'history-worker': resolve(__dirname, 'src-main/market/sim/history-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-renderer/index.html') },
      },
    },
  },
});
