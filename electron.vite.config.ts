import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// main: the Electron entry plus the two Node entry points that run without Electron
// (the web shell and the local service), so `npm start` runs built JavaScript, and the two worker
// threads, each started from the file beside the bundle that starts it: the core's dataset worker
// and the service's backtest sweep worker (the packaged app has only these files: docs/desktop.md).
// renderer: its two import aliases, the same as tsconfig.web.json's paths and vitest.config.ts's
// unit project (docs/ui.md, "Imports").
// preload: one CommonJS file, because a sandboxed window cannot load an ES module preload.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          web: resolve('src/main/web/cli.ts'),
          service: resolve('src/service/cli.ts'),
          'dataset-worker': resolve('src/main/core/datasets/dataset-worker.ts'),
          'sweep-worker': resolve('src/service/backtest/sweep-worker.ts'),
          'prepare-worker': resolve('src/service/preparation/prepare-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    resolve: {
      alias: { '@renderer': resolve('src/renderer/src'), '@shared': resolve('src/shared') },
    },
    build: { outDir: 'out/renderer', rollupOptions: { input: resolve('src/renderer/index.html') } },
    plugins: [react()],
  },
});
