// Minimal but well-formed video containers built in code: an ISO base media file (MP4 or
// QuickTime: ftyp plus a movie header) and a WebM EBML header with segment info. They hold no
// frames; they exist so video KYC downloads have the right type and structure.

function box(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
}

function movieHeader(): Buffer {
  const mvhd = Buffer.alloc(100);
  // version 0 and flags, creation and modification times stay zero.
  mvhd.writeUInt32BE(1000, 12); // timescale: milliseconds
  mvhd.writeUInt32BE(0, 16); // duration
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  // Unity transformation matrix.
  [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].forEach((v, i) => mvhd.writeUInt32BE(v, 36 + i * 4));
  mvhd.writeUInt32BE(1, 96); // next track id
  return box('mvhd', mvhd);
}

/** An ISO base media file: brand "isom" for MP4, "qt  " for QuickTime. */
export function emptyIsoMedia(kind: 'mp4' | 'quicktime'): Buffer {
  const brands = kind === 'mp4' ? ['isom', 'isom', 'iso2', 'mp41'] : ['qt  ', 'qt  '];
  const ftyp = Buffer.alloc(8 + (brands.length - 1) * 4);
  ftyp.write(brands[0] ?? 'isom', 0, 'latin1');
  ftyp.writeUInt32BE(0x200, 4);
  brands.slice(1).forEach((b, i) => ftyp.write(b, 8 + i * 4, 'latin1'));
  return Buffer.concat([box('ftyp', ftyp), box('moov', movieHeader())]);
}

function ebml(id: readonly number[], payload: Buffer): Buffer {
  // One-byte size vint: enough for every element here (all shorter than 127 bytes).
  if (payload.length > 126) throw new RangeError('EBML element too long for a one-byte size');
  return Buffer.concat([Buffer.from(id), Buffer.from([0x80 | payload.length]), payload]);
}

/** A WebM file: EBML header declaring DocType webm, and a segment with its info element. */
export function emptyWebm(): Buffer {
  const uint = (n: number) => Buffer.from([n]);
  const header = ebml([0x1a, 0x45, 0xdf, 0xa3], Buffer.concat([
    ebml([0x42, 0x86], uint(1)),
    ebml([0x42, 0xf7], uint(1)),
    ebml([0x42, 0xf2], uint(4)),
    ebml([0x42, 0xf3], uint(8)),
    ebml([0x42, 0x82], Buffer.from('webm', 'latin1')),
    ebml([0x42, 0x87], uint(4)),
    ebml([0x42, 0x85], uint(2)),
  ]));
  const app = Buffer.from('compliance-read demo', 'latin1');
  const info = ebml([0x15, 0x49, 0xa9, 0x66], Buffer.concat([
    ebml([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40])),
    ebml([0x4d, 0x80], app),
    ebml([0x57, 0x41], app),
  ]));
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], info)]);
}
