/** The import pipeline: lines → envelopes → validation → shaped writes, in batched transactions. */
import { stat } from 'node:fs/promises';
import { validateRecord } from '../contract/index.js';
import type { Store, Upsert } from '../store/store.js';
import { parseEnvelope } from './envelope.js';
import { InputError, openInput, readLines, type Line } from './lines.js';
import { RejectsWriter, rejectsPathFor } from './rejects.js';
import { shapeRecord } from './shape-record.js';

/** The counts an import reports. */
export interface ImportSummary {
  read: number;
  stored: number;
  unchanged: number;
  stale: number;
  rejected: number;
  warnings: number;
}

/** Tuning and reporting options of an import. */
export interface ImportOptions {
  /** Longest accepted line in bytes (default 16 MiB). */
  maxLineBytes?: number;
  /** Records per transaction (default 1000). */
  batchRecords?: number;
  /** Bytes per transaction before an early flush (default 32 MiB). */
  batchBytes?: number;
  /** zlib level of the stored gzip pieces; null stores none (default 6). */
  gzipLevel?: number | null;
  /** Called now and then with the counts so far and how far into the current input the import is. */
  onProgress?: (summary: ImportSummary, position: InputPosition) => void;
  /** Where rejects of an input go (default: beside the input). */
  rejectsPath?: (input: string) => string;
}

/** How far into one input an import is; totalBytes is unknown for stdin. */
export interface InputPosition {
  file: string;
  bytesRead: number;
  totalBytes: number | undefined;
}

/** An empty summary. */
export function emptySummary(): ImportSummary {
  return { read: 0, stored: 0, unchanged: 0, stale: 0, rejected: 0, warnings: 0 };
}

/** Imports NDJSON files (gzip or plain, `-` for stdin) into the store; returns the counts. */
export async function importFiles(store: Store, files: readonly string[], options: ImportOptions = {}): Promise<ImportSummary> {
  const summary = emptySummary();
  for (const file of files) await importOne(store, file, options, summary);
  return summary;
}

async function importOne(store: Store, file: string, options: ImportOptions, summary: ImportSummary): Promise<void> {
  const maxLine = options.maxLineBytes ?? 16 * 1024 * 1024;
  const batchRecords = options.batchRecords ?? 1000;
  const batchBytes = options.batchBytes ?? 32 * 1024 * 1024;
  const gzipLevel = options.gzipLevel === undefined ? 6 : options.gzipLevel;
  const rejects = new RejectsWriter((options.rejectsPath ?? rejectsPathFor)(file));
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
  const reject = (lineNo: number, issues: { path: string; message: string }[], line?: Buffer): void => {
    summary.rejected++;
    rejects.write(lineNo, issues, line);
  };
  const take = async (line: Line): Promise<void> => {
    if ('tooLong' in line) {
      summary.read++;
      reject(line.lineNo, [{ path: '', message: `line is ${line.tooLong} bytes, over the ${maxLine}-byte limit` }]);
      return;
    }
    if (isBlank(line.bytes)) return;
    summary.read++;
    const parsed = parseEnvelope(line.bytes);
    if (!parsed.ok) return reject(line.lineNo, parsed.issues, line.bytes);
    const checked = validateRecord(parsed.envelope.kind, parsed.envelope.record);
    if (!checked.ok) {
      return reject(line.lineNo, checked.issues.map((i) => ({ path: `/record${i.path}`, message: i.message })), line.bytes);
    }
    summary.warnings += checked.warnings.length;
    const upsert = shapeRecord(parsed.envelope, gzipLevel);
    batch.push(upsert);
    bytes += upsert.body.length + (upsert.gz?.length ?? 0);
    if (batch.length >= batchRecords || bytes >= batchBytes) await flush();
    if (options.onProgress && Date.now() - lastProgress > 250) {
      lastProgress = Date.now();
      options.onProgress(summary, position());
    }
  };
  try {
    const input = await openInput(file);
    const totalBytes = file === '-' ? undefined : (await stat(file)).size;
    position = () => ({ file, bytesRead: input.rawBytesRead(), totalBytes });
    let lastLine = 0;
    try {
      for await (const line of readLines(input.stream, maxLine)) {
        lastLine = line.lineNo;
        await take(line);
      }
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      // A damaged input (a truncated gzip, say): keep every whole line before the damage, report where it is.
      summary.read++;
      reject(lastLine + 1, [{ path: '', message: `the input is damaged from here on: ${err.message}` }]);
    }
    await flush();
  } finally {
    await rejects.close();
  }
  options.onProgress?.(summary, position());
}

function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09) return false;
  return true;
}
