/**
 * The calibration target: a bare node:http server answering every request with the same small
 * body, so the load generator's own limit shows. Run as its own process: `constant-server.ts PORT`.
 */
import http from 'node:http';

const [port] = process.argv.slice(2);
if (port === undefined) throw new Error('usage: constant-server.ts PORT');

const BODY = Buffer.from('{"ok":true}');
const HEADERS = ['content-type', 'application/json', 'content-length', String(BODY.length)];

const server = http.createServer((_req, res) => {
  res.writeHead(200, HEADERS);
  res.end(BODY);
});
// Same keep-alive budget as the ceiling and the service.
server.keepAliveTimeout = 5_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
