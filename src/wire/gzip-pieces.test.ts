import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import zlib from 'node:zlib';
import http from 'node:http';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import {
  crc32Combine, deflatePiece, deflatedPiece, gzipFromPieces, storedBlock, storedPiece, type GzipPiece,
} from './gzip-pieces.js';

const SYNC_FLUSH_TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);

function hasCommand(cmd: string): boolean {
  try {
    execFileSync(cmd, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** zlib 1.2.11's crc32_combine (32x32 GF(2) operator matrices), as an independent oracle. */
function matrixCrc32Combine(crc1: number, crc2: number, len2: number): number {
  const times = (mat: number[], vec: number): number => {
    let sum = 0;
    for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
    return sum >>> 0;
  };
  const square = (mat: number[]): number[] => mat.map((row) => times(mat, row));
  if (len2 <= 0) return (crc1 ^ crc2) >>> 0;
  let odd = [0xedb88320, ...Array.from({ length: 31 }, (_, n) => (1 << n) >>> 0)];
  let even = square(odd); // two zero bits
  odd = square(even); // four zero bits
  for (;;) {
    even = square(odd);
    if (len2 % 2 === 1) crc1 = times(even, crc1);
    len2 = Math.floor(len2 / 2);
    if (len2 === 0) break;
    odd = square(even);
    if (len2 % 2 === 1) crc1 = times(odd, crc1);
    len2 = Math.floor(len2 / 2);
    if (len2 === 0) break;
  }
  return (crc1 ^ crc2) >>> 0;
}

/** A mix of deflated and stored pieces, as a spliced response would have. */
function piecesOf(raws: Buffer[], stored: boolean[]): GzipPiece[] {
  return raws.map((r, i) => (stored[i] ? storedPiece(r) : deflatedPiece(r)));
}

describe('gzipFromPieces', () => {
  it('gunzips to exactly the concatenated raw bytes for random pieces', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 3000 }), fc.boolean()), { maxLength: 12 }),
        (parts) => {
          const raws = parts.map(([b]) => Buffer.from(b));
          const gz = Buffer.concat(gzipFromPieces(piecesOf(raws, parts.map(([, s]) => s))));
          expect(zlib.gunzipSync(gz).equals(Buffer.concat(raws))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('handles empty pieces, pieces above 64 KiB, binary data and a 1 MiB record', () => {
    const json = Buffer.from(JSON.stringify({ rows: Array.from({ length: 9000 }, (_, i) => ({ i, s: 'ab'.repeat(i % 40) })) }));
    const raws = [
      Buffer.alloc(0), Buffer.from('['), randomBytes(70_000), Buffer.alloc(0), Buffer.from(','),
      Buffer.alloc(65_535, 7), Buffer.alloc(65_536, 9), randomBytes(1 << 20), json, Buffer.alloc(0),
    ];
    for (const stored of [raws.map(() => true), raws.map(() => false), raws.map((_, i) => i % 2 === 0)]) {
      const gz = Buffer.concat(gzipFromPieces(piecesOf(raws, stored)));
      expect(zlib.gunzipSync(gz).equals(Buffer.concat(raws))).toBe(true);
    }
  });

  it('produces a valid empty gzip member from no pieces', () => {
    const gz = Buffer.concat(gzipFromPieces([]));
    expect(zlib.gunzipSync(gz).length).toBe(0);
  });

  it('is one gzip member: a 10-byte header, one deflate stream ending at the trailer', () => {
    const raws = [Buffer.from('{"a":'), Buffer.from('"x"'), Buffer.from('}')];
    const out = gzipFromPieces(piecesOf(raws, [false, true, false]));
    const gz = Buffer.concat(out);
    expect(out[0]!.length).toBe(10);
    expect(gz.subarray(0, 4)).toEqual(Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    // Inflating everything between header and trailer must consume it all and stop at BFINAL.
    const body = gz.subarray(10, gz.length - 8);
    expect(zlib.inflateRawSync(body).toString()).toBe('{"a":"x"}');
    const trailer = gz.subarray(gz.length - 8);
    expect(trailer.readUInt32LE(0)).toBe(zlib.crc32(Buffer.concat(raws)));
    expect(trailer.readUInt32LE(4)).toBe(9);
  });

  it.skipIf(!hasCommand('gunzip'))('is accepted by the gunzip command line tool', () => {
    const raws = [randomBytes(100_000), Buffer.from('[{"presignedUrl":"https://x/y"}]'), Buffer.alloc(200_000, 0x61)];
    const gz = Buffer.concat(gzipFromPieces(piecesOf(raws, [false, true, false])));
    const out = execFileSync('gunzip', ['-c'], { input: gz, maxBuffer: 10 << 20 });
    expect(out.equals(Buffer.concat(raws))).toBe(true);
    execFileSync('gzip', ['-t'], { input: gz }); // throws on trailing garbage or a bad CRC
  });

  it.skipIf(!hasCommand('curl'))('is decoded by curl --compressed as an HTTP response body', async () => {
    const raws = [Buffer.from('['), Buffer.from(JSON.stringify({ é: 'ü'.repeat(50_000) })), Buffer.from(']')];
    const body = gzipFromPieces(piecesOf(raws, [true, false, true]));
    const server = http.createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': body.reduce((n, b) => n + b.length, 0),
      });
      for (const b of body) res.write(b);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { stdout } = await promisify(execFile)('curl', ['-sS', '--fail', '--compressed', `http://127.0.0.1:${port}/`], {
        encoding: 'buffer', maxBuffer: 10 << 20,
      });
      expect(stdout.equals(Buffer.concat(raws))).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('deflatePiece', () => {
  it('ends byte aligned with a sync flush marker and no final block', () => {
    const d = deflatePiece(Buffer.from('hello hello hello'));
    expect(d.subarray(-4)).toEqual(SYNC_FLUSH_TAIL);
    // A raw inflate with a sync-flush finish succeeds; a plain one reports the missing end.
    expect(zlib.inflateRawSync(d, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString()).toBe('hello hello hello');
    expect(() => zlib.inflateRawSync(d)).toThrow();
  });

  it('returns nothing for empty input', () => {
    expect(deflatePiece(Buffer.alloc(0)).length).toBe(0);
  });
});

describe('storedBlock', () => {
  it('wraps bytes verbatim with LEN/NLEN, splitting above 65535 bytes', () => {
    const small = storedBlock(Buffer.from('ab'));
    expect(small).toEqual(Buffer.from([0x00, 0x02, 0x00, 0xfd, 0xff, 0x61, 0x62]));
    expect(storedBlock(Buffer.alloc(65_535)).length).toBe(65_535 + 5);
    const two = storedBlock(Buffer.alloc(65_536, 1));
    expect(two.length).toBe(65_536 + 10);
    expect(two.readUInt16LE(65_535 + 5 + 1)).toBe(1); // second block carries the last byte
  });

  it('inflates back to the input when closed by a final block', () => {
    const raw = randomBytes(200_000);
    const stream = Buffer.concat([storedBlock(raw), Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff])]);
    expect(zlib.inflateRawSync(stream).equals(raw)).toBe(true);
  });
});

describe('crc32Combine', () => {
  it('equals the CRC-32 of the concatenation for random splits', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.nat(), (bytes, at) => {
        const all = Buffer.from(bytes);
        const cut = all.length === 0 ? 0 : at % (all.length + 1);
        const a = all.subarray(0, cut);
        const b = all.subarray(cut);
        expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(zlib.crc32(all));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with the matrix method for lengths beyond 2^32', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (c1, c2, len) => {
        expect(crc32Combine(c1, c2, len)).toBe(matrixCrc32Combine(c1, c2, len));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves the first CRC unchanged when the second part is empty', () => {
    expect(crc32Combine(0xdeadbeef, 0, 0)).toBe(0xdeadbeef);
  });
});
