/** Import progress for people: a redrawn bar on a terminal, a plain line every few seconds otherwise. */
import type { ImportSummary, InputPosition } from '../ingest/import-summary.js';

/** Returns an onProgress callback writing to `out`, and a function that ends the display. */
export function progressReporter(out: NodeJS.WriteStream): {
  onProgress: (s: ImportSummary, p: InputPosition) => void;
  done: () => void;
} {
  const started = Date.now();
  let lastPlain = 0;
  let drawn = false;
  const line = (s: ImportSummary, p: InputPosition): string => {
    const secs = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = Math.round(s.read / secs);
    const counts = `${s.read.toLocaleString('en')} read, ${s.stored.toLocaleString('en')} stored, ${s.rejected} rejected (${rate.toLocaleString('en')}/s)`;
    if (p.totalBytes === undefined || p.totalBytes === 0) return `${p.file}: ${counts}`;
    const frac = Math.min(1, p.bytesRead / p.totalBytes);
    const width = 24;
    const bar = '#'.repeat(Math.round(frac * width)).padEnd(width, '.');
    return `[${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${counts}`;
  };
  return {
    onProgress(s, p) {
      if (out.isTTY) {
        out.write(`\r${line(s, p)}\x1b[K`);
        drawn = true;
      } else if (Date.now() - lastPlain >= 5000) {
        lastPlain = Date.now();
        out.write(`${line(s, p)}\n`);
      }
    },
    done() {
      if (drawn) out.write('\n');
    },
  };
}
