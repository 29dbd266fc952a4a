/** Builds the console from its sources into a temp dir, so a test serves what the code says, not a stale dist/. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';

export async function buildConsole(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'crs-console-'));
  // Vitest sets NODE_ENV=test, which would give React's development build: test what ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ mode: 'production', configFile: join(import.meta.dirname, '../../console/vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}
