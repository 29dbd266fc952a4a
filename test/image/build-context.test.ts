/**
 * The image's build context: `.dockerignore` excludes everything and lets back what the build stage
 * copies, so a file the Dockerfile copies that is not let back fails `docker build` only. This
 * reads both files and checks every COPY source from the context against the exceptions.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (name: string): string => readFileSync(`${ROOT}/${name}`, 'utf8');

/** The sources of each COPY instruction that copies from the build context (not --from a stage). */
function copiedFromContext(dockerfile: string): string[] {
  const sources: string[] = [];
  for (const line of dockerfile.replace(/\\\n/g, ' ').split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0]?.toUpperCase() !== 'COPY') continue;
    const args = words.slice(1);
    if (args.some((a) => a.startsWith('--from='))) continue;
    const paths = args.filter((a) => !a.startsWith('--'));
    sources.push(...paths.slice(0, -1).map((p) => p.replace(/^\.\//, '').replace(/\/$/, '')));
  }
  return sources;
}

/** Whether `.dockerignore`'s last rule matching `path` (or a folder above it) lets it in; only the forms this file uses. */
function letIn(rules: string[], path: string): boolean {
  let included = true;
  for (const rule of rules) {
    const negated = rule.startsWith('!');
    const pattern = (negated ? rule.slice(1) : rule).replace(/\/$/, '');
    const matches = pattern === '*' || pattern === path || path.startsWith(`${pattern}/`);
    if (matches) included = negated;
  }
  return included;
}

describe('the image build context', () => {
  const rules = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const sources = copiedFromContext(read('Dockerfile'));

  it('finds the Dockerfile copying from the context', () => {
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'src', 'console']));
  });

  it('holds every file and folder the Dockerfile copies from it', () => {
    expect(sources.filter((s) => !letIn(rules, s))).toEqual([]);
  });

  it('reads the exclusions as Docker does for the forms used', () => {
    expect(letIn(['*', '!src/'], 'src')).toBe(true);
    expect(letIn(['*', '!src/'], 'scripts/bundle.ts')).toBe(false);
    expect(letIn(['*', '!scripts/bundle.ts'], 'scripts/bundle.ts')).toBe(true);
  });
});
