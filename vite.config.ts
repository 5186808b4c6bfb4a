import { parse } from '@formatjs/icu-messageformat-parser';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const apiTarget = `http://localhost:${process.env.PORT ?? '3000'}`;
const CATALOGUE = /src\/client\/i18n\/[a-z]+\.json$/;

/**
 * Production builds ship the message catalogues already parsed (ICU AST), so the browser does not
 * need the ICU parser (~15 kB gzip of the first load); dev and tests keep plain strings.
 */
function precompiledMessages(): Plugin {
  return {
    name: 'uvtrace:precompiled-messages',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!CATALOGUE.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, parse(text)]));
      // Still JSON: Vite's own JSON plugin turns it into a module afterwards.
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/client/routes',
      generatedRouteTree: './src/client/routeTree.gen.ts',
      autoCodeSplitting: true,
      // A route's loader travels with its component: the features' query code it calls (api/*.ts) is
      // then fetched with the route instead of with every first page (−2.2 kB gzip of the initial chunk).
      codeSplittingOptions: {
        defaultBehavior: [
          ['loader', 'component'],
          ['pendingComponent'],
          ['errorComponent'],
          ['notFoundComponent'],
        ],
      },
    }),
    react(),
    precompiledMessages(),
  ],
  resolve: {
    alias:
      command === 'build'
        ? [
            {
              find: /^@formatjs\/icu-messageformat-parser$/,
              replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
            },
          ]
        : [],
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    // The first page's code is one chunk by design (~610 kB before gzip); bench:bundle watches its
    // gzip size against the 200 kB budget.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Everything the first page needs in one chunk: split into the ~20 pieces automatic chunking
        // makes, the same code was 10 kB gzip larger (201.7 against 191.8 kB: each piece is
        // compressed on its own).
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
    },
  },
  // The /verify page's bundle worker is an ES module worker: viem has dynamic imports,
  // which the default iife worker format cannot split.
  worker: { format: 'es' as const },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/export': apiTarget },
  },
}));
