/** Content hashes that key the bench cache. */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dirs` (recursively) that passes `keep`, sorted, relative to `root`. */
export function listFiles(root: string, dirs: string[], keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (keep(path)) out.push(path);
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out.map((p) => relative(root, p)).sort();
}

/** A short sha256 over the names and contents of files plus any extra values. */
export function hashOf(root: string, files: string[], extra: unknown = null): string {
  const h = createHash('sha256');
  // Names go in too, so that a rename alone changes the key.
  for (const f of files) h.update(f).update('\0').update(readFileSync(join(root, f))).update('\0');
  h.update(JSON.stringify(extra));
  return h.digest('hex').slice(0, 16);
}

/** True for the files `npm run build` compiles or copies (everything under src/ but tests). */
export function isServiceSource(path: string): boolean {
  return !path.endsWith('.test.ts');
}
