/**
 * A gzip response assembled from pre-compressed pieces.
 *
 * A deflate stream is a sequence of blocks; a block ended by a sync flush is byte aligned and not
 * final, so independently deflated pieces can be laid end to end and still form one valid
 * stream (each piece only back-references its own bytes). Static record bytes are deflated once
 * at import; per-request bytes (signed URLs, `[`, `,`) go in stored blocks, which cost a 5-byte
 * header and no CPU. One final empty stored block closes the stream, and the gzip trailer's
 * CRC-32 is combined from per-piece CRCs, so a response is never re-read nor re-compressed.
 *
 * The output is a single gzip member (RFC 1952) with a plain 10-byte header, which every
 * client (browsers, curl, gunzip, zlib's gunzip) accepts.
 */
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';

/** Deflate bytes plus what the gzip trailer needs about the raw bytes they stand for. */
export interface GzipPiece {
  deflated: Buffer;
  crc: number;
  length: number;
}

const MAX_STORED = 0xffff;
// ID1 ID2, CM=deflate, FLG=0, MTIME=0 (responses need none), XFL=0, OS=255 (unknown).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
// BFINAL=1, BTYPE=00, LEN=0, NLEN=0xffff: ends the stream without adding any bytes.
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const EMPTY = Buffer.alloc(0);

/** Raw deflate of `raw`, ended by a sync flush (byte aligned, not final); empty in, empty out. */
export function deflatePiece(raw: Buffer, level: number = zlib.constants.Z_DEFAULT_COMPRESSION): Buffer {
  if (raw.length === 0) return EMPTY;
  return zlib.deflateRawSync(raw, { level, finishFlush: zlib.constants.Z_SYNC_FLUSH });
}

/** Non-final stored deflate blocks carrying `raw` verbatim (split at 65535 bytes). */
export function storedBlock(raw: Buffer): Buffer {
  if (raw.length === 0) return EMPTY;
  const blocks = Math.ceil(raw.length / MAX_STORED);
  const out = Buffer.allocUnsafe(raw.length + blocks * 5);
  let o = 0;
  for (let r = 0; r < raw.length; r += MAX_STORED) {
    const len = Math.min(MAX_STORED, raw.length - r);
    out[o] = 0x00; // BFINAL=0, BTYPE=00; the remaining five bits pad to the byte boundary
    out.writeUInt16LE(len, o + 1);
    out.writeUInt16LE(~len & 0xffff, o + 3);
    raw.copy(out, o + 5, r, r + len);
    o += 5 + len;
  }
  return out;
}

/** A piece deflated now (import time), with its CRC and length. */
export function deflatedPiece(raw: Buffer, level?: number): GzipPiece {
  return { deflated: deflatePiece(raw, level), crc: zlib.crc32(raw), length: raw.length };
}

/** A piece in stored blocks (request time: small bytes, no compression work). */
export function storedPiece(raw: Buffer): GzipPiece {
  return { deflated: storedBlock(raw), crc: zlib.crc32(raw), length: raw.length };
}

// CRC-32 arithmetic over GF(2), reflected polynomial as in zlib. Combining shifts crc1 past
// len2 zero bytes, i.e. multiplies it by x^(8*len2) modulo the polynomial; zlib (since 1.2.12)
// does this with a table of x^(2^k) rather than re-squaring a 32x32 operator matrix per call,
// which keeps a per-piece combine on the request path to a few hundred word operations.
const POLY = 0xedb88320;
const X0 = 0x80000000; // the polynomial "1" in reflected bit order

function multModP(a: number, b: number): number {
  if (a === 0) return 0; // the loop below ends on a's lowest set bit
  let m = X0;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

// X2N[k] = x^(2^k) mod p, for k = 0..31.
const X2N: number[] = (() => {
  const t: number[] = [];
  let p = X0 >>> 1; // x^1
  t.push(p);
  for (let k = 1; k < 32; k++) t.push((p = multModP(p, p)));
  return t;
})();

/** x^(n * 2^k) mod p; n may exceed 2^32 (lengths are plain numbers). */
function x2nModP(n: number, k: number): number {
  let p = X0;
  while (n > 0) {
    if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

// Piece lengths repeat (a record's static slices, URLs of one shape): their shift operators are
// kept (the least recently used go first), so most combines on the request path are one multiplication.
// Bounded by maxSize: `max` would allocate every slot when the module loads.
const shifts = new LRUCache<number, number>({ maxSize: 65_536, sizeCalculation: () => 1 });

function shiftOf(len: number): number {
  let op = shifts.get(len);
  if (op === undefined) {
    op = x2nModP(len, 3);
    shifts.set(len, op);
  }
  return op;
}

/** CRC-32 of A+B from crc(A), crc(B) and B's length, as zlib's crc32_combine. */
export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (len2 <= 0) return (crc1 ^ crc2) >>> 0; // crc2 of nothing is 0
  return (multModP(shiftOf(len2), crc1 >>> 0) ^ (crc2 >>> 0)) >>> 0;
}

/** The buffers of one gzip member whose content is the pieces' raw bytes in order. */
export function gzipFromPieces(pieces: readonly GzipPiece[]): Buffer[] {
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  for (const p of pieces) {
    if (p.deflated.length > 0) out.push(p.deflated);
    crc = crc32Combine(crc, p.crc, p.length);
    size += p.length;
  }
  out.push(FINAL_BLOCK);
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(size % 0x100000000, 4); // ISIZE is the length modulo 2^32
  out.push(trailer);
  return out;
}
