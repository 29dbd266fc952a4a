import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sampleFileFor } from './sample-files.js';
import { PNG_SIGNATURE, crc32 } from './sample-png.js';

describe('sample PDF', () => {
  const { bytes, ext } = sampleFileFor('application/pdf');
  const text = bytes.toString('latin1');

  it('starts with %PDF- and ends with %%EOF', () => {
    expect(ext).toBe('pdf');
    expect(text.startsWith('%PDF-1.')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('has an xref table whose offsets point at each object and a startxref pointing at it', () => {
    const startxref = Number(/startxref\n(\d+)\n%%EOF/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const entries = [...text.slice(startxref).matchAll(/^(\d{10}) (\d{5}) ([nf])\r\n/gm)];
    expect(entries.length).toBe(6);
    entries.slice(1).forEach((m, i) => {
      const offset = Number(m[1]);
      expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });
  });

  it('declares the true length of its content stream', () => {
    const length = Number(/\/Length (\d+) >>\nstream\n/.exec(text)?.[1]);
    const start = text.indexOf('stream\n') + 'stream\n'.length;
    expect(text.slice(start + length, start + length + '\nendstream'.length)).toBe('\nendstream');
  });
});

describe('sample PNG', () => {
  const { bytes, ext } = sampleFileFor('image/png');

  it('has the signature, an IHDR first, valid chunk CRCs and pixel data of the declared size', () => {
    expect(ext).toBe('png');
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const chunks: { type: string; data: Buffer }[] = [];
    for (let at = 8; at < bytes.length; ) {
      const length = bytes.readUInt32BE(at);
      const type = bytes.toString('latin1', at + 4, at + 8);
      const data = bytes.subarray(at + 8, at + 8 + length);
      expect(bytes.readUInt32BE(at + 8 + length)).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
      chunks.push({ type, data });
      at += 12 + length;
    }
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const ihdr = chunks[0]!.data;
    const width = ihdr.readUInt32BE(0);
    const height = ihdr.readUInt32BE(4);
    expect([ihdr[8], ihdr[9]]).toEqual([8, 2]);
    expect(inflateSync(chunks[1]!.data).length).toBe(height * (1 + width * 3));
  });

  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('IEND', 'latin1'))).toBe(0xae426082);
  });
});

describe('sample JPEG and videos', () => {
  it('builds a JPEG from SOI to EOI with frame, tables and scan', () => {
    const { bytes, ext } = sampleFileFor('image/jpeg');
    expect(ext).toBe('jpg');
    expect(bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(bytes.subarray(-2).toString('hex')).toBe('ffd9');
    const markers: string[] = [];
    for (let at = 2; bytes[at] === 0xff && bytes[at + 1] !== 0xda; at += 2 + bytes.readUInt16BE(at + 2)) markers.push(bytes[at + 1]!.toString(16));
    expect(markers).toEqual(['e0', 'db', 'c0', 'c4', 'c4']);
    expect(sampleFileFor('image/jpg').bytes.equals(bytes)).toBe(true);
  });

  it('builds MP4 and QuickTime files that start with an ftyp box, and a WebM with an EBML header', () => {
    expect(sampleFileFor('video/mp4').bytes.toString('latin1', 4, 12)).toBe('ftypisom');
    expect(sampleFileFor('video/quicktime').bytes.toString('latin1', 4, 12)).toBe('ftypqt  ');
    const webm = sampleFileFor('video/webm').bytes;
    expect(webm.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    expect(webm.includes(Buffer.from('webm'))).toBe(true);
  });

  it('falls back to a small text file for unknown types', () => {
    expect(sampleFileFor('application/x-unknown').ext).toBe('txt');
  });
});
