/** Worker thread of the import: processes chunks of lines so parsing and compression use another core. */
import { parentPort } from 'node:worker_threads';
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

parentPort?.on('message', (task: ShapeTask) => {
  const results = task.lines.map((u8) => processLine(Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength), task.gzipLevel));
  parentPort!.postMessage({ id: task.id, results } satisfies ShapeAnswer);
});
