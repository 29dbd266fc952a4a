/** A snapshot build of the service, cached by a hash of src/, so that measurements run plain JS. */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashOf, isServiceSource, listFiles } from './hashing.js';

/** How to run the service's command line. */
export interface ServiceBuild {
  /** Arguments for `node` before the CLI's own arguments. */
  nodeArgs: string[];
  /** The directory holding dist/ (and package.json), or the repository root for tsx. */
  dir: string;
  kind: 'esbuild' | 'tsx';
  hash: string;
}

// Why not `npm run build` into dist/: others edit src/ while the bench runs, dist/ is shared, and
// tsc takes ~40 s on this machine. esbuild (already installed as tsx's compiler) emits the same
// per-file ESM in about a second into the bench's own cache; the service's startup and JIT are
// then those of the built JS, not of the tsx loader.
type EsbuildModule = { buildSync(options: Record<string, unknown>): unknown };

/** Builds (or reuses) the service from the current src/ under cacheDir; falls back to tsx. */
export async function ensureServiceBuild(root: string, cacheDir: string): Promise<ServiceBuild> {
  const files = listFiles(root, ['src'], isServiceSource);
  const hash = hashOf(root, [...files, 'package.json']);
  // Under a node_modules folder because ESLint ignores those by default: `eslint .` (npm test)
  // would otherwise lint the emitted JS, and eslint.config.js is not the bench's to change.
  // Packages still resolve: the lookup climbs past it to the repository's node_modules.
  const buildsDir = join(cacheDir, 'node_modules');
  const dir = join(buildsDir, `service-${hash}`);
  const main = join(dir, 'dist', 'cli', 'main.js');
  if (existsSync(main)) return { nodeArgs: [main], dir, kind: 'esbuild', hash };
  let esbuild: EsbuildModule;
  try {
    esbuild = (await import('esbuild' as string)) as EsbuildModule;
  } catch {
    process.stderr.write('bench: esbuild not found, running the service through tsx (slower start-up)\n');
    return { nodeArgs: ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts')], dir: root, kind: 'tsx', hash };
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  esbuild.buildSync({
    entryPoints: files.filter((f) => f.endsWith('.ts')).map((f) => join(root, f)),
    outdir: join(tmp, 'dist'),
    outbase: join(root, 'src'),
    format: 'esm',
    platform: 'node',
    // node20.19 keeps `with { type: 'json' }` import attributes, which older targets strip.
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'error',
  });
  cpSync(join(root, 'src', 'contract', 'data'), join(tmp, 'dist', 'contract', 'data'), { recursive: true });
  // The service reads its version from ../../package.json and needs "type": "module"; packages
  // resolve upwards from the cache to the repository's node_modules.
  cpSync(join(root, 'package.json'), join(tmp, 'package.json'));
  writeFileSync(join(tmp, 'SOURCE_HASH'), `${hash}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  pruneOldBuilds(buildsDir);
  return { nodeArgs: [main], dir, kind: 'esbuild', hash };
}

// Every edit of src/ makes a new build; old ones go after a day (not at once: a long --scale
// large run in the background may still be running from one).
function pruneOldBuilds(buildsDir: string): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of readdirSync(buildsDir)) {
    const path = join(buildsDir, name);
    if (name.startsWith('service-') && statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}
