/** The rejects file: one NDJSON line per refused input line, written beside the input. */
import { closeSync, constants, createWriteStream, fchmodSync, fstatSync, ftruncateSync, openSync, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LineIssue } from './envelope.js';

/** Largest input line copied into the rejects file; longer ones are named by number only. */
const MAX_COPIED_BYTES = 64 * 1024;
/** Issues listed per line, and characters kept of each path and message. */
const MAX_ISSUES = 100;
const MAX_ISSUE_CHARS = 1000;
/** Past this many bytes of rejects, each further entry keeps its line number and first issue only. */
const FULL_ENTRIES_BYTES = 64 * 1024 * 1024;

/** Where the rejects of an input go: `<input>.rejects.ndjson`, or `stdin.rejects.ndjson` in the working directory. */
export function rejectsPathFor(input: string): string {
  if (input === '-') return 'stdin.rejects.ndjson';
  const name = basename(input).replace(/\.gz$/, '');
  return join(dirname(input), `${name}.rejects.ndjson`);
}

/** The rejects file cannot be written safely (a link, someone else's file, not a file). */
export class RejectsFileError extends Error {}

/**
 * Opens the rejects file for writing, readable by its owner only. A symbolic link is never
 * followed (it could point anywhere the importing user may write); an existing file is reused
 * (truncated) only when it is a plain file of this user with no other hard link.
 */
export function openRejectsFile(path: string): number {
  // O_NONBLOCK: opening a FIFO planted at the path must fail or return, never wait for a reader.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let fd: number;
  try {
    fd = openSync(path, flags, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new RejectsFileError(`refusing to write rejects to ${path}: it is a symbolic link; remove it or move the input`);
    if (code === 'ENXIO') throw new RejectsFileError(`refusing to write rejects to ${path}: it is not a regular file`);
    throw err;
  }
  try {
    const st = fstatSync(fd);
    const problem = !st.isFile()
      ? 'it is not a regular file'
      : process.getuid !== undefined && st.uid !== process.getuid()
        ? 'it belongs to another user'
        : st.nlink > 1
          ? 'it has other hard links'
          : undefined;
    if (problem !== undefined) throw new RejectsFileError(`refusing to write rejects to ${path}: ${problem}; remove it or move the input`);
    ftruncateSync(fd, 0);
    // The mode given to open only applies to a new file, and the umask may narrow but never widen it.
    fchmodSync(fd, 0o600);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

function clip(s: string): string {
  return s.length <= MAX_ISSUE_CHARS ? s : `${s.slice(0, MAX_ISSUE_CHARS)}…`;
}

/** Appends rejects to a file, created on the first reject only. */
export class RejectsWriter {
  private out: WriteStream | undefined;
  private written = 0;
  count = 0;

  constructor(readonly path: string) {}

  /** Records one refused line with the issues found in it (the first hundred). */
  write(lineNo: number, issues: readonly LineIssue[], bytes: Buffer | undefined): void {
    this.out ??= createWriteStream(this.path, { fd: openRejectsFile(this.path) });
    this.count++;
    const full = this.written < FULL_ENTRIES_BYTES;
    const kept = issues.slice(0, full ? MAX_ISSUES : 1).map((i) => ({ path: clip(i.path), message: clip(i.message) }));
    if (kept.length < issues.length) kept.push({ path: '', message: `and ${issues.length - kept.length} more issues` });
    const entry: Record<string, unknown> = { line: lineNo, issues: kept };
    if (full && bytes !== undefined && bytes.length <= MAX_COPIED_BYTES) entry.text = bytes.toString('utf8');
    const text = JSON.stringify(entry) + '\n';
    this.written += Buffer.byteLength(text);
    this.out.write(text);
  }

  /** Flushes and closes the file, if one was opened. */
  async close(): Promise<void> {
    const out = this.out;
    if (out === undefined) return;
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
