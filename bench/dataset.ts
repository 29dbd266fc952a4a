/** The bench data set: generated once per (generator sources, options), then reused from the cache. */
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import type { DemoOptions } from '../src/demo/index.js';
import { hashOf, isServiceSource, listFiles } from './hashing.js';
import { DatasetScanner, type Manifest } from './manifest.js';
import type { DatasetOptions } from './scales.js';

export interface Dataset {
  file: string;
  manifest: Manifest;
  hash: string;
  reused: boolean;
  /** Seconds the generation took when it ran (from the cache: the original run's). */
  generateSeconds: number;
  options: DatasetOptions;
}

type Generator = (options: DemoOptions) => Iterable<string>;

// From the sources (the bench runs under tsx): the bundle keeps no module of its own for the generator.
async function loadGenerator(root: string): Promise<Generator> {
  const path = join(root, 'src', 'demo', 'index.ts');
  const mod = (await import(pathToFileURL(path).href)) as { generateDemo: Generator };
  return mod.generateDemo;
}

/**
 * Returns the cached data set for these options, generating it first if needed. With `gzip` the
 * file is stored gzip-compressed (level 1), which `import` reads natively: large is ~24 GB of
 * NDJSON and its SQLite store ~1.4 times that, more than this machine's free disk holds together.
 */
export async function ensureDataset(root: string, cacheDir: string, options: DatasetOptions, gzip = false): Promise<Dataset> {
  // The generator lives in src/demo and draws enumerations and code lists from src/contract.
  const sources = listFiles(root, ['src/demo', 'src/contract'], isServiceSource);
  const hash = hashOf(root, sources, gzip ? { options, gzip } : options);
  const dir = join(cacheDir, `data-${hash}`);
  const file = join(dir, gzip ? 'data.ndjson.gz' : 'data.ndjson');
  const manifestFile = join(dir, 'manifest.json');
  if (existsSync(manifestFile)) {
    const saved = JSON.parse(readFileSync(manifestFile, 'utf8')) as { manifest: Manifest; generateSeconds: number };
    return { file, manifest: saved.manifest, hash, reused: true, generateSeconds: saved.generateSeconds, options };
  }
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const manifest = await generate(await loadGenerator(root), options, `${file}.tmp`, gzip);
  const generateSeconds = (performance.now() - started) / 1000;
  renameSync(`${file}.tmp`, file);
  // The manifest is written last: its presence marks a complete data set.
  writeFileSync(manifestFile, `${JSON.stringify({ options, manifest, generateSeconds }, null, 1)}\n`);
  return { file, manifest, hash, reused: false, generateSeconds, options };
}

async function generate(generateDemo: Generator, options: DatasetOptions, out: string, gzip: boolean): Promise<Manifest> {
  rmSync(out, { force: true });
  const file = createWriteStream(out);
  // zlib runs on the libuv pool, so compression mostly uses the second core, not the generator's.
  const stream = gzip ? createGzip({ level: 1 }) : file;
  if (gzip) stream.pipe(file);
  const scanner = new DatasetScanner();
  let batch: string[] = [];
  let batchBytes = 0;
  let lastReport = performance.now();
  const started = lastReport;
  for (const raw of generateDemo(options)) {
    const line = raw.endsWith('\n') ? raw : `${raw}\n`;
    scanner.add(line);
    batch.push(line);
    batchBytes += line.length;
    // Batching keeps write calls (and their promises) off the per-record path.
    if (batchBytes >= 1 << 20) {
      if (!stream.write(batch.join(''))) await once(stream, 'drain');
      batch = [];
      batchBytes = 0;
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        const m = scanner.progress();
        process.stderr.write(`  generating: ${m.records.toLocaleString('en')} records, ${(m.bytes / 1e9).toFixed(2)} GB, ${Math.round((lastReport - started) / 1000)} s\n`);
      }
    }
  }
  stream.end(batch.join(''));
  await once(file, 'finish');
  return scanner.finish();
}
