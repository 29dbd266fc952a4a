/**
 * The ceiling: a bare node:http server answering from a Map with the exact bytes and headers the
 * service gave for the same requests. Run as its own process: `ceiling-server.ts DATA_FILE PORT`.
 */
import http from 'node:http';
import { ceilingKey, readCeilingData } from './ceiling-data.js';

const [file, port] = process.argv.slice(2);
if (file === undefined || port === undefined) throw new Error('usage: ceiling-server.ts DATA_FILE PORT');

const responses = new Map<string, { status: number; rawHeaders: string[]; body: Buffer }>();
for (const r of readCeilingData(file)) responses.set(r.key, r);

const NOT_FOUND = Buffer.from('{"message":"not in the ceiling map","code":"not_found"}');

const server = http.createServer((req, res) => {
  const h = req.headers;
  const hit = responses.get(ceilingKey(h.authorization, req.url, h['accept-encoding'], h['if-none-match']));
  if (hit === undefined) {
    res.writeHead(404, { 'content-type': 'application/json', 'content-length': NOT_FOUND.length });
    res.end(NOT_FOUND);
    return;
  }
  // The flat raw-header array is passed through untouched: no per-request object building.
  res.writeHead(hit.status, hit.rawHeaders);
  res.end(hit.status === 304 ? undefined : hit.body);
});
// Same keep-alive budget as the service's default, so idle connections live equally long.
server.keepAliveTimeout = 5_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`ready ${responses.size}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
