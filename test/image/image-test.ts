/**
 * The container image end to end (`npm run test:image`, not part of `npm test`): builds the image,
 * then, in containers on the host network, migrates, mints a key, imports generated demo records
 * and serves them, once on a SQLite store in a named volume and once on a throwaway PostgreSQL
 * schema; reads every company and alert back over HTTP and compares it with its input line; checks
 * the service runs as non-root, its HEALTHCHECK turns healthy, and `docker stop` ends it with exit 0.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/cli-process.js';
import { throwawaySchema } from '../support/postgres-admin.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IMAGE = process.env.IMAGE_TAG ?? 'compliance-read:test';
const RUN = `crs-image-${process.pid}-${randomBytes(3).toString('hex')}`;
const VOLUME = `${RUN}-data`;
/** Generous bounds: a first build compiles better-sqlite3 and the console on a small machine. */
const BUILD_TIMEOUT_MS = 30 * 60_000;
const COMMAND_TIMEOUT_MS = 5 * 60_000;
const HEALTHY_WITHIN_MS = 90_000;
const STOP_GRACE_S = 20;

let failures = 0;
const say = (line: string): void => void process.stdout.write(`${line}\n`);
function check(ok: boolean, what: string, detail = ''): void {
  say(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail === '' ? '' : ` (${detail})`}`);
  if (!ok) failures++;
}

/** Runs a command to completion within `timeoutMs`; throws with its output when it fails. */
function sh(cmd: string, args: string[], { timeoutMs = COMMAND_TIMEOUT_MS, quiet = true } = {}): string {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'] });
  if (r.error !== undefined) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.slice(0, 6).join(' ')} exited ${r.status}:\n${(r.stderr ?? '').slice(-4000)}${(r.stdout ?? '').slice(-2000)}`);
  return r.stdout ?? '';
}
const docker = (args: string[], timeoutMs?: number): string => sh('docker', args, { timeoutMs });

/** One CLI command in a fresh container of the image, on the host network, with the data volume. */
function cli(env: Record<string, string>, args: string[]): string {
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return docker(['run', '--rm', '--network', 'host', '-v', `${VOLUME}:/data`, ...envArgs, IMAGE, ...args]);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A served record with its document URLs left out: the service signs them per answer. */
function withoutSignedUrls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSignedUrls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'presignedUrl').map(([k, v]) => [k, withoutSignedUrls(v)]));
}

interface Input {
  companies: Map<string, unknown>;
  alerts: Map<string, unknown>;
  lines: number;
  /** The one project the generator was asked for: the key reads it. */
  project: string;
  /** A customer of it, for a request that is held in flight. */
  customer: string;
}

function parseInput(ndjson: string): Input {
  const input: Input = { companies: new Map(), alerts: new Map(), lines: 0, project: '', customer: '' };
  for (const line of ndjson.split('\n')) {
    if (line === '') continue;
    input.lines++;
    const env = JSON.parse(line) as { kind: string; record: { id: string; type?: string; cmsProjectId?: string } };
    if (env.kind === 'customer') {
      input.project ||= env.record.cmsProjectId ?? '';
      input.customer ||= env.record.id;
    }
    if (env.kind === 'customer' && env.record.type === 'Company') input.companies.set(env.record.id, env.record);
    if (env.kind === 'alert') input.alerts.set(env.record.id, env.record);
  }
  return input;
}

/** Reads each record back through the running container and compares it with its input line. */
async function compareRecords(port: number, key: string, input: Input, store: string): Promise<void> {
  const base = `http://127.0.0.1:${port}/v1`;
  const get = async (path: string): Promise<unknown> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
  for (const [label, records, path] of [
    ['companies', input.companies, (id: string) => `/companies/${id}/details`],
    ['alerts', input.alerts, (id: string) => `/alerts/${id}`],
  ] as const) {
    let same = 0;
    const differing: string[] = [];
    for (const [id, record] of records) {
      const served = withoutSignedUrls(await get(path(id)));
      if (isDeepStrictEqual(served, withoutSignedUrls(record))) same++;
      else differing.push(id);
    }
    check(records.size > 0 && same === records.size, `${store}: ${label} read back over HTTP equal their input`, `${same} of ${records.size}${differing.length > 0 ? `, first differing ${differing[0]}` : ''}`);
  }
}

/** The console's built files are in the image: /console answers its page and the page's script. */
async function checkConsole(port: number, store: string): Promise<void> {
  const origin = `http://127.0.0.1:${port}`;
  const page = await fetch(`${origin}/console`, { signal: AbortSignal.timeout(10_000) });
  const html = await page.text();
  const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  const asset = script === undefined ? undefined : await fetch(`${origin}${script}`, { signal: AbortSignal.timeout(10_000) });
  check(page.status === 200 && asset?.status === 200, `${store}: the console is served from the image`, `/console ${page.status}, ${script ?? 'no script'} ${asset?.status ?? '-'}`);
}

/** A second SIGTERM during the drain ends the service at once with 143, as PID 1 too. */
async function checkSecondSignal(databaseUrl: string, key: string, customerId: string): Promise<void> {
  const port = await freePort();
  const container = `${RUN}-signals`;
  docker(['run', '-d', '--name', container, '--network', 'host', '-v', `${VOLUME}:/data`, '-e', `DATABASE_URL=${databaseUrl}`, '-e', 'HOST=127.0.0.1', '-e', `PORT=${port}`,
    '-e', 'SHUTDOWN_GRACE_MS=600000', '-e', 'REQUEST_TIMEOUT_MS=600000', IMAGE]);
  let socket: Socket | undefined;
  try {
    await waitHealthy(container);
    socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    // A request in flight whose promised body never comes: the drain waits for it.
    socket.write(`POST /v1/customers/${customerId}/erase HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
    await sleep(500);
    docker(['kill', '--signal', 'TERM', container]);
    await sleep(1000);
    const draining = docker(['inspect', '-f', '{{.State.Running}}', container]).trim();
    docker(['kill', '--signal', 'TERM', container]);
    const exit = docker(['wait', container], 60_000).trim();
    check(draining === 'true' && exit === '143', 'a second SIGTERM during the drain ends PID 1 at once with 143', `running after the first: ${draining}, exit ${exit}`);
  } finally {
    socket?.destroy();
    spawnSync('docker', ['rm', '-f', container], { timeout: 60_000, stdio: 'ignore' });
  }
}

async function waitHealthy(container: string): Promise<string> {
  const deadline = Date.now() + HEALTHY_WITHIN_MS;
  let status = '';
  while (Date.now() < deadline) {
    status = docker(['inspect', '-f', '{{.State.Health.Status}}', container]).trim();
    if (status === 'healthy' || status === 'unhealthy') return status;
    await sleep(1000);
  }
  return status;
}

/** Migrate, key, import, serve, compare, stop: one store through the image. */
async function throughStore(store: string, databaseUrl: string, input: Input): Promise<void> {
  const env = { DATABASE_URL: databaseUrl };
  const migrated = cli(env, ['migrate', '--json']);
  const report = JSON.parse(migrated.trim().split('\n').at(-1)!) as { after: number; latest: number };
  check(report.after === report.latest && report.latest > 0, `${store}: migrate brings the schema to the latest version`, migrated.trim());

  const key = cli(env, ['keys', 'create', '--project', input.project, '--name', 'image test']).trim().split('\n').at(-1)!;
  check(key.length > 20, `${store}: keys create prints a key`);

  const imported = cli(env, ['import', '--json', '/data/in.ndjson']);
  const summary = JSON.parse(imported.trim().split('\n').at(-1)!) as { read: number; stored: number; rejected: number };
  check(summary.read === input.lines && summary.stored === input.lines && summary.rejected === 0, `${store}: import stores every generated line`, `read ${summary.read}, stored ${summary.stored}, rejected ${summary.rejected}`);

  const port = await freePort();
  const container = `${RUN}-${store}`;
  docker(['run', '-d', '--name', container, '--network', 'host', '-v', `${VOLUME}:/data`, '-e', `DATABASE_URL=${databaseUrl}`, '-e', 'HOST=127.0.0.1', '-e', `PORT=${port}`, '-e', 'LOG_LEVEL=warn', IMAGE]);
  try {
    const health = await waitHealthy(container);
    check(health === 'healthy', `${store}: HEALTHCHECK turns healthy`, health);
    const uid = docker(['exec', container, 'id', '-u']).trim();
    const pid1 = docker(['exec', container, 'cat', '/proc/1/cmdline']).replace(/\0/g, ' ').trim();
    check(uid !== '0' && uid !== '', `${store}: the service runs as non-root`, `uid ${uid}, PID 1 is "${pid1}"`);
    await compareRecords(port, key, input, store);
    await checkConsole(port, store);
    // A figure for docs/deploy.md's sizing, printed and never asserted.
    say(`${store}: memory of the serving container after the reads: ${docker(['stats', '--no-stream', '--format', '{{.MemUsage}}', container]).trim()}`);
    const t0 = Date.now();
    docker(['stop', '-t', String(STOP_GRACE_S), container], (STOP_GRACE_S + 30) * 1000);
    const stoppedMs = Date.now() - t0;
    const exit = docker(['inspect', '-f', '{{.State.ExitCode}}', container]).trim();
    // Exit 0 within the grace: SIGTERM reached the service as PID 1 (a SIGKILL after the grace is 137).
    check(exit === '0', `${store}: docker stop ends the service with exit 0 (SIGTERM handled)`, `exit ${exit}, docker stop took ${stoppedMs} ms`);
    if (store === 'sqlite') await checkSecondSignal(databaseUrl, key, input.customer);
  } catch (err) {
    say(docker(['logs', '--tail', '40', container]));
    throw err;
  } finally {
    spawnSync('docker', ['rm', '-f', container], { timeout: 60_000, stdio: 'ignore' });
  }
}

async function main(): Promise<void> {
  const daemon = spawnSync('bash', ['scripts/docker-daemon.sh'], { cwd: ROOT, encoding: 'utf8', timeout: 15 * 60_000, stdio: ['ignore', 'inherit', 'pipe'] });
  if (daemon.status !== 0) {
    process.stderr.write(`${daemon.stderr}\ntest:image: no Docker daemon can run containers on this machine; the image was not tested\n`);
    process.exit(1);
  }
  const haveBase = ['node:20-bookworm', 'node:20-bookworm-slim'].every((t) => spawnSync('docker', ['image', 'inspect', t], { stdio: 'ignore', timeout: 30_000 }).status === 0);
  if (!haveBase) sh('bash', ['scripts/local-base-images.sh'], { timeoutMs: 60 * 60_000, quiet: false });

  say(`building ${IMAGE}`);
  const t0 = Date.now();
  sh('docker', ['build', '--network', 'host', '-t', IMAGE, '.'], { timeoutMs: BUILD_TIMEOUT_MS, quiet: false });
  const bytes = Number(docker(['image', 'inspect', '-f', '{{.Size}}', IMAGE]).trim());
  say(`built ${IMAGE} in ${Math.round((Date.now() - t0) / 1000)} s: ${(bytes / 1e6).toFixed(1)} MB`);
  const user = docker(['image', 'inspect', '-f', '{{.Config.User}}', IMAGE]).trim();
  check(user !== '' && !user.startsWith('root') && !user.startsWith('0'), 'the image names a non-root user', user);

  docker(['volume', 'create', VOLUME]);
  const schema = throwawaySchema('image_test');
  try {
    cli({}, ['demo', '--no-import', '--no-files', '--no-keys', '--out', '/data/in.ndjson', '--seed', '11', '--projects', '1', '--companies', '12', '--individuals', '4', '--alerts', '12', '--executions-per-customer', '2', '--heavy-customer-executions', '3', '--large-alert-ratio', '0']);
    const ndjson = docker(['run', '--rm', '--network', 'none', '-v', `${VOLUME}:/data`, '--entrypoint', 'cat', IMAGE, '/data/in.ndjson']);
    const input = parseInput(ndjson);
    say(`generated ${input.lines} lines of project ${input.project}: ${input.companies.size} companies, ${input.alerts.size} alerts`);

    await throughStore('sqlite', '/data/compliance.db', input);
    await schema.create();
    await throughStore('postgres', schema.url, input);
  } finally {
    await schema.drop().catch((err: Error) => say(`could not drop schema ${schema.schema}: ${err.message}`));
    spawnSync('docker', ['volume', 'rm', '-f', VOLUME], { timeout: 60_000, stdio: 'ignore' });
  }
  say(failures === 0 ? 'test:image: all checks passed' : `test:image: ${failures} check(s) failed`);
  process.exitCode = failures === 0 ? 0 : 1;
}

await main().catch((err: Error) => {
  process.stderr.write(`test:image: ${err.message}\n`);
  process.exitCode = 1;
});
