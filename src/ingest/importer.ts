/** The import pipeline: lines → envelopes → validation → prepared writes, in batched transactions. */
import { stat } from 'node:fs/promises';
import { SETTINGS } from '../config/settings.js';
import type { Store, Upsert } from '../store/store.js';
import type { ImportPool } from './import-pool.js';
import type { LineIssue } from './envelope.js';
import { InputError, openInput, readLines, type Line } from './lines.js';
import { RejectsWriter, rejectsPathFor } from './rejects.js';
import { processLine, type LineResult } from './process-line.js';
import { emptySummary, ImportStopped, type ImportSummary, type InputPosition } from './import-summary.js';

/** Tuning and reporting options of an import. */
export interface ImportOptions {
  /** Longest accepted line in bytes (default 16 MiB). */
  maxLineBytes?: number;
  /** Records per transaction (default 1000). */
  batchRecords?: number;
  /** Bytes per transaction before an early flush (default 16 MiB). */
  batchBytes?: number;
  /** zlib level of the stored gzip pieces; null stores none (default 6). */
  gzipLevel?: number | null;
  /** Called now and then with the counts so far and how far into the current input the import is. */
  onProgress?: (summary: ImportSummary, position: InputPosition) => void;
  /** Worker threads that parse, validate and compress (0, the default, does it on this thread). */
  workers?: number;
  /** Of importStream: the caller's pool the lines are prepared in (the service's, shared by its pushes); without one, this thread prepares them. */
  pool?: ImportPool;
  /** Where rejects of an input go (default: beside the input). */
  rejectsPath?: (input: string) => string;
  /** Rejected lines the whole import tolerates; one more stops it (default 10,000). */
  maxRejects?: number;
  /** The only project whose records are stored: a record of another one is a rejected line. */
  project?: string;
  /** Takes each rejected line instead of a rejects file. */
  onReject?: (lineNo: number, issues: readonly LineIssue[]) => void;
}

/** Imports NDJSON files (gzip or plain, `-` for stdin) into the store; returns the counts. */
export async function importFiles(store: Store, files: readonly string[], options: ImportOptions = {}): Promise<ImportSummary> {
  const summary = emptySummary();
  const gzipLevel = options.gzipLevel === undefined ? 6 : options.gzipLevel;
  const workers = options.workers ?? 0;
  // Loaded only by an import that uses workers: the pool's library is no part of a start-up.
  const pool = workers > 0 ? new (await import('./import-pool.js')).ImportPool(workers) : undefined;
  const prepare = pool ? pooled(pool, gzipLevel) : inline(gzipLevel);
  try {
    for (const file of files) await importOne(store, file, fileSource(file), options, summary, prepare);
  } finally {
    await pool?.close();
  }
  return summary;
}

/**
 * Imports one plain NDJSON stream (no gzip sniffing: the caller decoded it) through the same steps
 * as a file, its lines prepared in `options.pool` when given; `name` labels it in the summary's
 * errors. Rejects go to `options.onReject`.
 */
export async function importStream(store: Store, name: string, stream: AsyncIterable<Buffer>, options: ImportOptions): Promise<ImportSummary> {
  const summary = emptySummary();
  const gzipLevel = options.gzipLevel === undefined ? 6 : options.gzipLevel;
  let read = 0;
  const counted = async function* (): AsyncGenerator<Buffer> {
    for await (const chunk of stream) {
      read += chunk.length;
      yield chunk;
    }
  };
  const source: Source = async () => ({ input: { stream: counted(), rawBytesRead: () => read }, totalBytes: undefined });
  const pool = options.pool;
  await importOne(store, name, source, { ...options, workers: pool?.size ?? 0 }, summary, pool ? pooled(pool, gzipLevel) : inline(gzipLevel));
  return summary;
}

/** Opens an input: its decoded stream, and its size when known. */
type Source = () => Promise<{ input: { stream: AsyncIterable<Buffer>; rawBytesRead(): number }; totalBytes: number | undefined }>;

function fileSource(file: string): Source {
  return async () => ({ input: await openInput(file), totalBytes: file === '-' ? undefined : (await stat(file)).size });
}

/** Prepares chunks of lines, inline or in worker threads. */
interface Prepare {
  chunk(lines: Buffer[]): Promise<LineResult[]>;
  /** Prepares a chunk still waiting for a worker on this thread; false when none waits. */
  helpOne(): boolean;
}

/** Chunks prepared in a pool's workers (and by this thread while it would wait, where the pool lets it). */
function pooled(pool: ImportPool, gzipLevel: number | null): Prepare {
  return { chunk: (lines) => pool.prepare(lines, gzipLevel), helpOne: () => pool.helpOne() };
}

/** Every chunk prepared on this thread as it is sealed. */
function inline(gzipLevel: number | null): Prepare {
  return { chunk: async (lines) => lines.map((l) => processLine(l, gzipLevel)), helpOne: () => false };
}

/** A chunk of input on its way through preparing, with line numbers and what is already known. */
interface Chunk {
  lineNos: number[];
  texts: (Buffer | undefined)[];
  /** Results decided without preparing (a line over the size limit), by position. */
  early: (LineResult | undefined)[];
  results: Promise<LineResult[]>;
  /** Set once `results` has settled. */
  ready: boolean;
}

const CHUNK_LINES = 256;
const CHUNK_BYTES = 2 * 1024 * 1024;

async function importOne(store: Store, file: string, source: Source, options: ImportOptions, summary: ImportSummary, prepare: Prepare): Promise<void> {
  const maxLine = options.maxLineBytes ?? 16 * 1024 * 1024;
  const batchRecords = options.batchRecords ?? 1000;
  const batchBytes = options.batchBytes ?? 16 * 1024 * 1024;
  // Beyond the chunks the workers hold (two each), two more wait for whichever thread is free first.
  const inflightLimit = 2 * (options.workers ?? 0) + 2;
  const onReject = options.onReject;
  const rejects = onReject !== undefined ? { write: onReject, close: async () => {} } : new RejectsWriter((options.rejectsPath ?? rejectsPathFor)(file));
  let batch: Upsert[] = [];
  let bytes = 0;
  let lastProgress = Date.now();
  let position = (): InputPosition => ({ file, bytesRead: 0, totalBytes: undefined });
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const outcomes = await store.writeBatch(batch);
    for (const o of outcomes) summary[o]++;
    batch = [];
    bytes = 0;
  };
  const maxRejects = options.maxRejects ?? SETTINGS.maxRejects.default;
  const readBefore = summary.read;
  // Lines whose outcome is decided; lines read ahead of them are not counted when the import stops.
  let decided = 0;
  const reject = async (lineNo: number, issues: LineIssue[], line?: Buffer): Promise<void> => {
    summary.rejected++;
    if (summary.rejected <= maxRejects) {
      rejects.write(lineNo, issues, line);
      return;
    }
    summary.read = readBefore + decided;
    const stop = new ImportStopped(summary, file, lineNo, maxRejects);
    rejects.write(lineNo, [{ path: '', message: stop.message }, ...issues], line);
    // The valid lines before this one are stored, so a corrected re-run finds a clear boundary.
    await flush();
    throw stop;
  };

  // Lines are prepared in chunks (in parallel when there are workers) and applied in input order.
  const inflight: Chunk[] = [];
  let open: { lineNos: number[]; texts: (Buffer | undefined)[]; early: (LineResult | undefined)[]; toPrepare: Buffer[]; size: number } | undefined;
  const apply = async (chunk: Chunk): Promise<void> => {
    // This thread prepares waiting chunks rather than wait idle for a worker's.
    let helped = true;
    while (!chunk.ready && helped) helped = prepare.helpOne();
    const prepared = await chunk.results;
    let s = 0;
    for (let i = 0; i < chunk.lineNos.length; i++) {
      const result = chunk.early[i] ?? prepared[s++]!;
      decided++;
      if (result.kind === 'reject') {
        await reject(chunk.lineNos[i]!, result.issues, result.line ?? chunk.texts[i]);
        continue;
      }
      if (options.project !== undefined && result.upsert.project !== options.project) {
        const path = result.upsert.kind === 'execution' ? '/cmsProjectId' : '/record/cmsProjectId';
        await reject(chunk.lineNos[i]!, [{ path, message: `must be ${options.project}, the project this import writes to` }], chunk.texts[i]);
        continue;
      }
      summary.warnings += result.warnings;
      batch.push(result.upsert);
      bytes += result.upsert.body.length + (result.upsert.deflated?.length ?? 0);
      if (batch.length >= batchRecords || bytes >= batchBytes) await flush();
    }
    if (options.onProgress && Date.now() - lastProgress > 250) {
      lastProgress = Date.now();
      options.onProgress(summary, position());
    }
  };
  const seal = async (): Promise<void> => {
    if (open === undefined) return;
    const c = open;
    open = undefined;
    const results = c.toPrepare.length > 0 ? prepare.chunk(c.toPrepare) : Promise.resolve([]);
    const chunk: Chunk = { lineNos: c.lineNos, texts: c.texts, early: c.early, results, ready: false };
    const ready = (): void => {
      chunk.ready = true;
    };
    results.then(ready, ready);
    inflight.push(chunk);
    while (inflight.length > inflightLimit) await apply(inflight.shift()!);
  };
  const take = async (line: Line): Promise<void> => {
    summary.read++;
    open ??= { lineNos: [], texts: [], early: [], toPrepare: [], size: 0 };
    open.lineNos.push(line.lineNo);
    if ('tooLong' in line) {
      open.texts.push(undefined);
      open.early.push({ kind: 'reject', issues: [{ path: '', message: `line is ${line.tooLong} bytes, over the ${maxLine}-byte limit` }] });
    } else {
      open.texts.push(line.bytes);
      open.early.push(undefined);
      open.toPrepare.push(line.bytes);
      open.size += line.bytes.length;
    }
    if (open.lineNos.length >= CHUNK_LINES || open.size >= CHUNK_BYTES) await seal();
  };
  try {
    const { input, totalBytes } = await source();
    position = () => ({ file, bytesRead: input.rawBytesRead(), totalBytes });
    let lastLine = 0;
    let damage: InputError | undefined;
    try {
      for await (const line of readLines(input.stream, maxLine)) {
        lastLine = line.lineNo;
        await take(line);
      }
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      damage = err;
    }
    await seal();
    while (inflight.length > 0) await apply(inflight.shift()!);
    if (damage !== undefined) {
      // A damaged input (a truncated gzip, say): every whole line before the damage is kept.
      summary.read++;
      decided++;
      await reject(lastLine + 1, [{ path: '', message: `the input is damaged from here on: ${damage.message}` }]);
    }
    await flush();
  } finally {
    await rejects.close();
  }
  options.onProgress?.(summary, position());
}
