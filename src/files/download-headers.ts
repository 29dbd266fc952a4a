/**
 * Response headers for a document download, shared by the local file route and the S3
 * presigner (as ResponseContentType / ResponseContentDisposition).
 *
 * Document files are customer uploads: always served as attachments with a validated content
 * type, never rendered inline on the service's own origin.
 */

import { wellFormed } from './file-store.js';

const FALLBACK_TYPE = 'application/octet-stream';
const TOKEN = "[A-Za-z0-9!#$&^_.+-]+";
// type/subtype with optional parameters; anything else (CR/LF, quotes in odd places) is refused.
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\r\\n]*"))*$`);

/** The mimetype when it is a well-formed media type, else application/octet-stream. */
export function safeContentType(mimetype: string | undefined): string {
  return mimetype !== undefined && mimetype.length <= 255 && MEDIA_TYPE.test(mimetype) ? mimetype : FALLBACK_TYPE;
}

/** `attachment` with an ASCII filename fallback and the exact name as RFC 5987 filename*. */
export function contentDisposition(filename: string | undefined): string {
  if (filename === undefined || filename === '') return 'attachment';
  filename = wellFormed(filename);
  const ascii = filename.replace(/[^\x20-\x7e]|["\\/]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Headers for serving a verified local file: type, attachment, no sniffing, cache until expiry. */
export function downloadHeaders(
  file: { filename?: string | undefined; mimetype?: string | undefined; size: number; expires: number },
  nowMs: number,
): Record<string, string> {
  const maxAge = Math.max(0, Math.floor(file.expires - nowMs / 1000));
  return {
    'content-type': safeContentType(file.mimetype),
    'content-disposition': contentDisposition(file.filename),
    'content-length': String(file.size),
    'x-content-type-options': 'nosniff',
    // A sandboxed, script-free document even if a browser ignores the attachment disposition.
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': `private, max-age=${maxAge}`,
  };
}
