/** Worker thread of the import: processes chunks of lines so parsing and compression use another core. */
import { parentPort } from 'node:worker_threads';
import { transferList } from '../threads/owned-bytes.js';
import { processLine, type LineResult } from './process-line.js';

/** A chunk of lines sent to a worker. */
export interface ShapeTask {
  id: number;
  lines: Uint8Array[];
  gzipLevel: number | null;
}

/** The worker's answer: one result per line, in order. */
export interface ShapeAnswer {
  id: number;
  results: LineResult[];
}

/** The ArrayBuffers of the answer's bytes (shaping allocates them owned), to be moved rather than copied. */
export function transferables(results: readonly LineResult[]): ArrayBuffer[] {
  const bytes: (Buffer | null | undefined)[] = [];
  for (const r of results) {
    if (r.kind === 'record') bytes.push(r.upsert.body, r.upsert.deflated);
    else bytes.push(r.line);
  }
  return transferList(bytes);
}

parentPort?.on('message', (task: ShapeTask) => {
  const results = task.lines.map((u8): LineResult => {
    const line = Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
    const result = processLine(line, task.gzipLevel);
    // The importer moved the line here, so a reject carries it back for the rejects file.
    return result.kind === 'reject' ? { ...result, line } : result;
  });
  parentPort!.postMessage({ id: task.id, results } satisfies ShapeAnswer, transferables(results));
});
