/** Build of the analyst console: a static bundle in dist/console, served by the service at /console. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The contract reads its data files (country codes) with node:fs at load; in the browser bundle
 * the same text is inlined at build time, so the client's operation table loads unchanged.
 */
function inlineContractData(): Plugin {
  const read = /import \{ readFileSync \} from 'node:fs';/;
  const call = /readFileSync\(\s*new URL\('(\.\/data\/[\w-]+\.json)', import\.meta\.url\),\s*'utf8',?\s*\)/g;
  return {
    name: 'inline-contract-data',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('/src/contract/') || !read.test(code)) return null;
      const inlined = code.replace(call, (_, file: string) => JSON.stringify(readFileSync(resolve(dirname(id), file), 'utf8')));
      return inlined.replace(read, '');
    },
  };
}

export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react(), inlineContractData()],
  build: {
    outDir: resolve(here, '../dist/console'),
    emptyOutDir: true,
    // Vite would inline small assets as data: URLs; files keep every asset under the CSP's 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // The entry bundle (React, TanStack, the client and its contract schemas); pdf.js is a lazy chunk of its own.
    chunkSizeWarningLimit: 700,
  },
});
