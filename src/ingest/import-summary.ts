/**
 * What an import reports: its counts, how far into an input it is, and the stop at a rejected line
 * past the limit. Apart from the importer, so the command line's thread holds none of its validators.
 */

/** The counts an import reports. */
export interface ImportSummary {
  read: number;
  stored: number;
  unchanged: number;
  stale: number;
  rejected: number;
  warnings: number;
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

/**
 * The import stopped at a rejected line past `maxRejects`: every valid line before it is stored,
 * nothing from it on. Carries the counts up to that line.
 */
export class ImportStopped extends Error {
  constructor(
    readonly summary: ImportSummary,
    readonly file: string,
    readonly lineNo: number,
    readonly maxRejects: number,
  ) {
    super(
      `the import stopped at line ${lineNo} of ${file}: more than ${maxRejects} lines were rejected (--max-rejects). ` +
        'Every valid line before it is stored, nothing from it on.',
    );
  }
}
