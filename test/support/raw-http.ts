/** Sends exact request bytes over a socket (fetch would normalise them), and reads the whole answer. */
import { connect } from 'node:net';

/** A parsed HTTP/1.1 answer. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `head` (request line and headers, no final blank line) and returns the response; rejects after `timeoutMs`. */
export function rawRequest(url: string, head: string, timeoutMs = 5000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(head.slice(0, 200))}`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, end < 0 ? text.length : end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      let body = end < 0 ? '' : text.slice(end + 4);
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: Buffer.from(body, 'latin1').toString('utf8') });
    });
    socket.write(`${head}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`, 'latin1');
  });
}

function unchunk(body: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const nl = body.indexOf('\r\n', i);
    if (nl < 0) return out;
    const size = parseInt(body.slice(i, nl), 16);
    if (!size) return out;
    out += body.slice(nl + 2, nl + 2 + size);
    i = nl + 2 + size + 2;
  }
}
