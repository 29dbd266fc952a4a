/** A snapshot build of the service, cached by a hash of src/, so that measurements run what ships. */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashOf, isServiceSource, listFiles } from './hashing.js';
import { bundleCli } from '../scripts/bundle.js';

/** How to run the service's command line. */
export interface ServiceBuild {
  /** Arguments for `node` before the CLI's own arguments. */
  nodeArgs: string[];
  /** The directory holding dist/ (and package.json). */
  dir: string;
  kind: 'esbuild';
  hash: string;
}

// Why not `npm run build` into dist/: others edit src/ while the bench runs and dist/ is shared.
// The bench bundles the command line as the build does (scripts/bundle.ts) into its own
// cache, so start-up and JIT are those of what ships, not of the tsx loader.

/** Builds (or reuses) the service from the current src/ under cacheDir. */
export async function ensureServiceBuild(root: string, cacheDir: string): Promise<ServiceBuild> {
  const files = listFiles(root, ['src'], isServiceSource);
  const hash = hashOf(root, [...files, 'package.json', 'scripts/bundle.ts']);
  // Under a node_modules folder because ESLint ignores those by default: `eslint .` (npm test)
  // would otherwise lint the emitted JS, and eslint.config.js is not the bench's to change.
  // Packages still resolve: the lookup climbs past it to the repository's node_modules.
  const buildsDir = join(cacheDir, 'node_modules');
  const dir = join(buildsDir, `service-${hash}`);
  const main = join(dir, 'dist', 'cli', 'main.js');
  if (existsSync(main)) return { nodeArgs: [main], dir, kind: 'esbuild', hash };
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  await bundleCli(root, tmp);
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
