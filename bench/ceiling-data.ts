/** The ceiling server's data: captured responses, framed in one binary file, and its lookup key. */
import { readFileSync, writeFileSync } from 'node:fs';

export interface CapturedResponse {
  key: string;
  status: number;
  /** Flat name/value list as the service sent it, minus hop-by-hop headers node adds itself. */
  rawHeaders: string[];
  body: Buffer;
}

/**
 * What identifies a response: key, path, whether gzip was asked, whether it is a revalidation.
 * The If-None-Match value itself is left out: ETags of records with signed URLs roll over every
 * minute, and the ceiling only has to serve the same bytes, not validate.
 */
export function ceilingKey(authorization: string | undefined, url: string | undefined, acceptEncoding: string | undefined, ifNoneMatch: string | undefined): string {
  const gzip = acceptEncoding !== undefined && acceptEncoding.includes('gzip') ? 'gz' : 'id';
  return `${authorization ?? ''} ${url ?? ''} ${gzip} ${ifNoneMatch === undefined ? '200' : 'inm'}`;
}

/** Writes responses as [u32 header length][JSON header][u32 body length][body] frames. */
export function writeCeilingData(file: string, responses: Iterable<CapturedResponse>): void {
  const parts: Buffer[] = [];
  for (const r of responses) {
    const head = Buffer.from(JSON.stringify({ key: r.key, status: r.status, rawHeaders: r.rawHeaders }));
    const len = Buffer.alloc(8);
    len.writeUInt32LE(head.length, 0);
    len.writeUInt32LE(r.body.length, 4);
    parts.push(len, head, r.body);
  }
  writeFileSync(file, Buffer.concat(parts));
}

/** Reads the frames written by writeCeilingData. */
export function readCeilingData(file: string): CapturedResponse[] {
  const buf = readFileSync(file);
  const out: CapturedResponse[] = [];
  for (let at = 0; at < buf.length; ) {
    const headLen = buf.readUInt32LE(at);
    const bodyLen = buf.readUInt32LE(at + 4);
    const head = JSON.parse(buf.subarray(at + 8, at + 8 + headLen).toString()) as Omit<CapturedResponse, 'body'>;
    const bodyAt = at + 8 + headLen;
    out.push({ ...head, body: Buffer.from(buf.subarray(bodyAt, bodyAt + bodyLen)) });
    at = bodyAt + bodyLen;
  }
  return out;
}
