import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://localhost:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/client/routes',
      generatedRouteTree: './src/client/routeTree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
  ],
  build: { outDir: 'dist/client', emptyOutDir: true, sourcemap: false, manifest: true },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/export': apiTarget },
  },
});
