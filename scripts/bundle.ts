/**
 * The package's built JavaScript. The command line is bundled into dist/cli: the entry, each worker
 * thread's module and the shared chunks side by side, so a start reads a few files instead of
 * resolving hundreds (spawn to the first answer, bench/results/2026-11-27-bundled-cli.md); each
 * command stays its own chunk, loaded when it runs. The typed client is one module,
 * dist/client/client.js. Usage: `node --import tsx scripts/bundle.ts [OUT_ROOT]` (default: this checkout).
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

/** What every bundle of the package shares: ES modules for the Node version the package supports. */
const COMMON: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  // node20.19 keeps `with { type: 'json' }` import attributes, which older targets strip.
  target: 'node20.19',
  sourcemap: 'linked',
  logLevel: 'warning',
};

/**
 * Packages left to Node's own loading: native code (better-sqlite3, pg's optional pg-native), and
 * packages that find their own files beside their modules at run time (piscina's worker,
 * swagger-ui's static pages, pino's transports).
 */
export const UNBUNDLED = ['better-sqlite3', 'pg-native', 'piscina', '@fastify/swagger-ui', 'pino'];

/**
 * The worker threads, started by file name beside their caller (`startWorker`): in the bundle
 * every caller's code and every worker sit in dist/cli.
 */
const WORKERS: Record<string, string> = {
  'import-process-child': 'src/ingest/import-process-child.ts',
  'prepare-worker': 'src/ingest/prepare-worker.ts',
  'read-thread-worker': 'src/store/sqlite/read-thread-worker.ts',
  'access-log-thread-worker': 'src/store/sqlite/access-log-thread-worker.ts',
  'write-thread-worker': 'src/store/sqlite/write-thread-worker.ts',
};

/** Bundles `root`'s command line into `outRoot`/dist/cli (emptied first), with the contract's data files beside it. */
export async function bundleCli(root: string, outRoot: string): Promise<void> {
  const outdir = join(outRoot, 'dist', 'cli');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    ...COMMON,
    entryPoints: { main: join(root, 'src/cli/main.ts'), ...Object.fromEntries(Object.entries(WORKERS).map(([name, file]) => [name, join(root, file)])) },
    splitting: true,
    outdir,
    chunkNames: 'chunk-[hash]',
    external: UNBUNDLED,
    // CommonJS packages inside an ES module bundle still call require for Node's own modules.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  });
  copyContractData(root, outdir);
}

/** The contract's modules read its data files beside themselves (new URL('./data/...', import.meta.url)): in a bundle, beside the bundle. */
function copyContractData(root: string, outdir: string): void {
  cpSync(join(root, 'src', 'contract', 'data'), join(outdir, 'data'), { recursive: true });
}

/** Bundles the typed client into `outRoot`/dist/client/client.js, for programs that import it from the package. */
export async function bundleClient(root: string, outRoot: string): Promise<void> {
  const outdir = join(outRoot, 'dist', 'client');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    ...COMMON,
    entryPoints: [join(root, 'src/client/client.ts')],
    outdir,
    packages: 'external',
  });
  copyContractData(root, outdir);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const outRoot = process.argv[2] ?? root;
  await bundleCli(root, outRoot);
  await bundleClient(root, outRoot);
}
