/**
 * A private PostgreSQL cluster in a temp dir on a free port, for tests that stop and start the
 * server. It never touches the shared server on 5432. initdb refuses to run as root, so as root
 * the binaries run as the `postgres` user, which owns the temp dir.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './cli-process.js';

const BIN_DIRS = [process.env.PG_BIN, '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/14/bin'].filter((d): d is string => d !== undefined);

/** The directory holding initdb and pg_ctl, or undefined when none is installed. */
export function postgresBinDir(): string | undefined {
  return BIN_DIRS.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')));
}

/** A running throwaway cluster. */
export interface ThrowawayPostgres {
  url: string;
  port: number;
  /** Stops the server at once, as a crash would (`pg_ctl stop -m immediate`). */
  crash(): Promise<void>;
  /** Starts the server again on the same port and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops the server and deletes its files. */
  destroy(): Promise<void>;
}

/** Creates and starts a cluster; `bin` from postgresBinDir(). */
export async function startThrowawayPostgres(bin: string): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'crs-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  // Asynchronous, so the event loop (and the requests a test keeps sending) runs meanwhile.
  const run = async (tool: string, args: string[]): Promise<void> => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    await promisify(execFile)(cmd as string, argv as string[], { timeout: 60_000 });
  };
  await run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  // Its own socket directory and no durability: a test cluster, stopped without mercy.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = (): Promise<void> => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    crash: () => run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']),
    start,
    async destroy() {
      await run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined); // may be stopped already
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
