// A real baseline JPEG built in code. A solid grey image needs only DC coefficients, so the
// Huffman tables hold two DC symbols and the end-of-block AC symbol, and the whole entropy-coded
// scan is a few bits: no encoder library required.

function segment(marker: number, payload: readonly number[]): number[] {
  const length = payload.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

/** Packs bit strings MSB first, pads with 1-bits and stuffs a zero after every 0xFF byte. */
function packBits(bits: string): number[] {
  const padded = bits + '1'.repeat((8 - (bits.length % 8)) % 8);
  const out: number[] = [];
  for (let i = 0; i < padded.length; i += 8) {
    const byte = parseInt(padded.slice(i, i + 8), 2);
    out.push(byte);
    if (byte === 0xff) out.push(0x00);
  }
  return out;
}

/** A greyscale JPEG of 16x16 pixels at the given grey level (0-255). */
export function solidGreyJpeg(level: number): Buffer {
  const size = 16;
  // With a quantisation table of ones the DC coefficient is 8 * (level - 128).
  const dc = 8 * (Math.max(0, Math.min(255, Math.round(level))) - 128);
  const magnitude = Math.abs(dc);
  const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
  // Negative values are sent as the one's complement of their magnitude.
  const valueBits = category === 0 ? '' : (dc > 0 ? dc : dc + (1 << category) - 1).toString(2).padStart(category, '0');
  // DC table: symbol 0 has code "0"; symbol `category` has code "10". AC table: EOB (0x00) has code "0".
  const dcCode = (cat: number): string => (cat === 0 ? '0' : '10');
  const blocks = (size / 8) * (size / 8);
  let bits = dcCode(category) + valueBits + '0';
  for (let b = 1; b < blocks; b += 1) bits += dcCode(0) + '0';
  const dcCounts = category === 0 ? [1, ...Array(15).fill(0)] : [1, 1, ...Array(14).fill(0)];
  const dcSymbols = category === 0 ? [0] : [0, category];
  const bytes = [
    0xff, 0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0x00, ...Array(64).fill(1)]),
    ...segment(0xc0, [8, 0, size, 0, size, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, ...dcCounts, ...dcSymbols]),
    ...segment(0xc4, [0x10, 1, ...Array(15).fill(0), 0x00]),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...packBits(bits),
    0xff, 0xd9,
  ];
  return Buffer.from(bytes);
}
