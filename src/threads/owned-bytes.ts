/**
 * Bytes that own their memory. Small Buffers share 8 KiB slabs of Node's pool, so moving one to
 * another thread would take its neighbours with it; bytes in an ArrayBuffer of their own can be
 * transferred between the importer and its workers instead of being copied both ways (shaped
 * gzip pieces are concatenated into one too).
 */

/** A copy of `bytes[start, end)` in an ArrayBuffer of its own. */
export function ownedCopy(bytes: Uint8Array, start = 0, end = bytes.length): Buffer {
  const out = Buffer.allocUnsafeSlow(end - start);
  out.set(bytes.subarray(start, end));
  return out;
}

/** The buffers laid end to end in an ArrayBuffer of their own. */
export function ownedConcat(parts: readonly Uint8Array[]): Buffer {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The ArrayBuffers that may be moved to another thread with these bytes: those the bytes span
 * whole (a view into anything larger may share it with bytes still in use), each once.
 */
export function transferList(buffers: Iterable<Uint8Array | null | undefined>): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const b of buffers) {
    if (b == null || b.byteLength === 0 || b.byteOffset !== 0) continue;
    if (b.buffer instanceof ArrayBuffer && b.byteLength === b.buffer.byteLength) out.add(b.buffer);
  }
  return [...out];
}

/** A Buffer over the same memory: bytes that arrive from another thread are plain Uint8Arrays. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** `value` with every Uint8Array inside it (plain objects and arrays, as a thread's message holds them) made a Buffer over the same memory. */
export function withBuffers<T>(value: T): T {
  if (value instanceof Uint8Array) return asBuffer(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(withBuffers) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = withBuffers(v);
  return out as T;
}
