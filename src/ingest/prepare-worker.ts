/** Worker thread of the import: prepares chunks of lines so parsing and compression use another core. */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { transferList } from '../threads/owned-bytes.js';
import { processLine, type LineResult } from './process-line.js';

/** A chunk of lines sent to a worker. */
export interface PrepareTask {
  lines: Uint8Array[];
  gzipLevel: number | null;
}

/** The ArrayBuffers of the results' bytes (preparing allocates them owned), to be moved rather than copied. */
export function transferables(results: readonly LineResult[]): ArrayBuffer[] {
  const bytes: (Buffer | null | undefined)[] = [];
  for (const r of results) {
    if (r.kind === 'record') {
      bytes.push(r.upsert.body, r.upsert.deflated);
      if (r.upsert.kind === 'alert') bytes.push(r.upsert.listing.summary.body, r.upsert.listing.summary.deflated);
    }
    else bytes.push(r.line);
  }
  return transferList(bytes);
}

/** One result per line, in order; their bytes are moved to the importing thread. */
export default function prepareChunk(task: PrepareTask): ReturnType<typeof move> {
  const results = task.lines.map((u8): LineResult => {
    const line = Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
    const result = processLine(line, task.gzipLevel);
    // The importer moved the line here, so a reject carries it back for the rejects file.
    return result.kind === 'reject' ? { ...result, line } : result;
  });
  return move({ [transferableSymbol]: transferables(results), [valueSymbol]: results });
}
