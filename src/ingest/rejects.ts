/** The rejects file: one NDJSON line per refused input line, written beside the input. */
import { createWriteStream, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LineIssue } from './envelope.js';

/** Largest input line copied into the rejects file; longer ones are named by number only. */
const MAX_COPIED_BYTES = 64 * 1024;

/** Where the rejects of an input go: `<input>.rejects.ndjson`, or `stdin.rejects.ndjson` in the working directory. */
export function rejectsPathFor(input: string): string {
  if (input === '-') return 'stdin.rejects.ndjson';
  const name = basename(input).replace(/\.gz$/, '');
  return join(dirname(input), `${name}.rejects.ndjson`);
}

/** Appends rejects to a file, created on the first reject only. */
export class RejectsWriter {
  private out: WriteStream | undefined;
  count = 0;

  constructor(readonly path: string) {}

  /** Records one refused line with every issue found in it. */
  write(lineNo: number, issues: readonly LineIssue[], bytes: Buffer | undefined): void {
    this.out ??= createWriteStream(this.path, { flags: 'w' });
    this.count++;
    const entry: Record<string, unknown> = { line: lineNo, issues };
    if (bytes !== undefined && bytes.length <= MAX_COPIED_BYTES) entry.text = bytes.toString('utf8');
    this.out.write(JSON.stringify(entry) + '\n');
  }

  /** Flushes and closes the file, if one was opened. */
  async close(): Promise<void> {
    const out = this.out;
    if (out === undefined) return;
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
