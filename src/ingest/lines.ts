/** Splits a byte stream into NDJSON lines without ever holding more than one line in memory. */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { PassThrough, type Readable } from 'node:stream';
import { ownedConcat, ownedCopy } from '../threads/owned-bytes.js';

/** One input line: its bytes (CR and a leading BOM removed), or why it was not read. */
export type Line =
  | { lineNo: number; bytes: Buffer }
  | { lineNo: number; tooLong: number };

const GZIP_MAGIC = [0x1f, 0x8b];

/** The input itself is damaged or unreadable (as opposed to one bad line in it). */
export class InputError extends Error {}

/** An opened input: its decoded byte stream and how many raw bytes have been read so far. */
export interface Input {
  stream: Readable;
  rawBytesRead: () => number;
}

/** Opens a file (or `-` for stdin), gunzipping it when its first bytes say gzip. */
export async function openInput(file: string): Promise<Input> {
  const raw: Readable = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 });
  const first = await new Promise<Buffer | null>((resolve, reject) => {
    const onReadable = (): void => {
      cleanup();
      resolve(raw.read(2) as Buffer | null ?? (raw.read() as Buffer | null));
    };
    const onEnd = (): void => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      raw.off('readable', onReadable);
      raw.off('end', onEnd);
      raw.off('error', onError);
    };
    raw.once('readable', onReadable);
    raw.once('end', onEnd);
    raw.once('error', onError);
  });
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  let read = 0;
  if (first === null) {
    out.end();
    return { stream: out, rawBytesRead: () => read };
  }
  raw.unshift(first);
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length;
  });
  const gz = first.length >= 2 && first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1];
  // zlib's default 16 KiB output chunks: on damage it drops its partial chunk, so larger ones
  // (faster on a flood of blank lines) would lose more of the whole lines before the damage.
  const source = gz ? raw.pipe(createGunzip()) : raw;
  source.on('error', (err) => out.destroy(new InputError(err.message)));
  raw.on('error', (err) => out.destroy(new InputError(err.message)));
  return { stream: source.pipe(out), rawBytesRead: () => read };
}

/** Space, tab or CR: what a blank line may hold besides its newline. */
function isBlankByte(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}

/** Lines of one length in a row after which a repeating pattern is looked for. */
const RUN_LINES = 64;

/**
 * How many bytes from `at` go on repeating the run of `period`-byte lines that began at
 * `runStart`: the bytes ahead are compared with as many bytes behind, natively, doubling each time.
 */
function repeatsAhead(chunk: Buffer, runStart: number, at: number, period: number): number {
  const from = at;
  let width = at - runStart;
  for (;;) {
    const room = chunk.length - at;
    const w = Math.min(width, room - (room % period));
    if (w === 0 || chunk.compare(chunk, at - w, at, at, at + w) !== 0) return at - from;
    at += w;
    width = Math.min(2 * width, 1 << 20);
  }
}

/**
 * From `start`, at the beginning of a line, the end of the blank lines there (just past the last
 * newline of the run) and how many there are; `start` itself when the line is not blank. A flood of
 * identical blank lines (`\n`, `\r\n`, ` \n`...) is skipped by comparing blocks, not bytes.
 */
function skipBlankLines(chunk: Buffer, start: number): { end: number; lines: number } {
  let i = start;
  let end = start;
  let lines = 0;
  let period = 0;
  let same = 0;
  let runStart = start;
  while (i < chunk.length) {
    const c = chunk[i]!;
    if (c === 0x0a) {
      const length = i + 1 - end;
      lines++;
      if (length === period) {
        same++;
      } else {
        period = length;
        same = 1;
        runStart = end;
      }
      end = ++i;
      if (same < RUN_LINES) continue;
      // Blank lines that repeat one pattern are followed by more of it, most likely: compare blocks.
      if (chunk.compare(chunk, runStart, i - period, runStart + period, i) === 0) {
        const bytes = repeatsAhead(chunk, runStart, i, period);
        lines += bytes / period;
        end = i += bytes;
      }
      period = 0;
      same = 0;
    } else if (isBlankByte(c)) {
      i++;
    } else {
      break;
    }
  }
  return { end, lines };
}

/**
 * Yields the non-blank lines of a stream; blank lines (only spaces, tabs, CR) are counted but
 * never yielded, so a flood of them costs a scan, not a line each. A line longer than `maxBytes`
 * is skipped as it streams by (reported with its length), so one huge line cannot exhaust memory.
 */
export async function* readLines(input: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let size = 0;
  let overflow = 0;
  let lineNo = 0;
  const finish = (end: Buffer | undefined): Line | undefined => {
    lineNo++;
    if (overflow > 0) {
      const n = overflow + (end?.length ?? 0);
      overflow = 0;
      parts = [];
      size = 0;
      return { lineNo, tooLong: n };
    }
    let bytes = parts.length === 0 ? (end ?? Buffer.alloc(0)) : ownedConcat(end ? [...parts, end] : parts);
    parts = [];
    size = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    if (lineNo === 1 && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      bytes = bytes.subarray(3);
    }
    return isBlank(bytes) ? undefined : { lineNo, bytes };
  };
  for await (const chunk of input) {
    let start = 0;
    for (;;) {
      if (parts.length === 0 && overflow === 0) {
        const blank = skipBlankLines(chunk, start);
        lineNo += blank.lines;
        start = blank.end;
      }
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      const piece = chunk.subarray(start, nl);
      let line: Line | undefined;
      if (overflow > 0 || size + piece.length > maxBytes) {
        overflow += size + piece.length;
        line = finish(undefined);
      } else {
        // Copy: the chunk's memory is reused by the stream, and lines outlive it in batches. The
        // copy owns its memory, so it can be moved to an import worker rather than copied again.
        line = finish(parts.length === 0 ? ownedCopy(piece) : piece);
      }
      if (line !== undefined) yield line;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) continue;
    if (overflow > 0 || size + rest.length > maxBytes) {
      overflow += size + rest.length;
      parts = [];
      size = 0;
    } else {
      parts.push(Buffer.from(rest));
      size += rest.length;
    }
  }
  if (overflow > 0 || size > 0) {
    const line = finish(undefined);
    if (line !== undefined) yield line;
  }
}

function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (!isBlankByte(b)) return false;
  return true;
}
