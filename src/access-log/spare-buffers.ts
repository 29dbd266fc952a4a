/**
 * Buffers a written chunk of the access log gives back for the next chunks to fill. A chunk lives
 * until its write, long enough for V8 to move its buffers to the old generation, where their bytes
 * count toward the next full collection: a fresh pair per chunk set off a mark-compact every
 * second or so under load, and each stalled every request in flight (bench/results/2026-11-27-access-log-buffers.md).
 */

/** A buffer past this size is left to the collector: a chunk this large is an outage's backlog, not the steady state. */
export const SPARE_BUFFER_MAX_BYTES = 1024 * 1024;

/** Bytes kept in all at most. */
export const SPARE_BYTES_MAX = 4 * 1024 * 1024;

/** A bounded shelf of spare buffers. */
export class SpareBuffers {
  private readonly shelf: Buffer[] = [];
  private bytes = 0;

  constructor(
    private readonly maxBufferBytes = SPARE_BUFFER_MAX_BYTES,
    private readonly maxBytes = SPARE_BYTES_MAX,
  ) {}

  /** A buffer of at least `size` bytes (its content is whatever it last held): the largest spare one, else a new one. */
  take(size: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.shelf.length; i++) if (this.shelf[i]!.length >= size && (best < 0 || this.shelf[i]!.length > this.shelf[best]!.length)) best = i;
    if (best < 0) return Buffer.allocUnsafeSlow(size);
    const [buffer] = this.shelf.splice(best, 1);
    this.bytes -= buffer!.length;
    return buffer!;
  }

  /** Keeps `buffer` for a later `take`, within the bounds; the caller no longer uses it. */
  give(buffer: Buffer): void {
    if (buffer.length === 0 || buffer.length > this.maxBufferBytes || this.bytes + buffer.length > this.maxBytes) return;
    this.shelf.push(buffer);
    this.bytes += buffer.length;
  }

  /** Bytes kept now. */
  get size(): number {
    return this.bytes;
  }
}
