/**
 * The import floor: what no import of this data set can skip on this machine (reading and
 * gunzipping the file, splitting it into lines, JSON.parse, deflate of each record, an insert of its
 * bytes and deflated bytes under a primary key), measured as CPU per record in the same run as the
 * import it is compared with.
 */
import Database from 'better-sqlite3';
import { createReadStream, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createGunzip, gzipSync } from 'node:zlib';
import { cpuSince, postgresPids } from './process-cpu.js';
import { withClient, type BenchStore } from './stores.js';

/** Per record, in µs of CPU (every thread, and PostgreSQL's processes for its insert). */
export interface FloorSteps {
  read: number;
  parse: number;
  deflate: number;
  insert: number;
}

export interface ImportFloor {
  /** Lines read: every one of the file's. */
  records: number;
  /** Lines parsed, deflated and inserted: every k-th, spread over the whole file. */
  sampled: number;
  steps: FloorSteps;
  /** Cores the work may spread over (the importer uses them all: one reads, writes and prepares what waits, the others prepare). */
  cores: number;
  /** cores × 1e6 ÷ the steps' sum: the rate of an import doing only this work, perfectly spread. */
  recordsPerSecond: number;
}

/** What the store-independent steps measured, reused for each store's insert. */
export interface SampledLines {
  records: number;
  lines: Buffer[];
  deflated: Buffer[];
  ids: string[];
  read: number;
  parse: number;
  deflate: number;
}

const SAMPLE = 20_000;
const TRANSACTION = 1000;

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Reads every line of the data set (gunzip included when it is compressed) and keeps every k-th,
 * then parses and deflates the kept ones: the steps every store's import shares.
 */
export async function sampleLines(file: string, records: number, gzipLevel = 6): Promise<SampledLines> {
  const stride = Math.max(1, Math.floor(records / SAMPLE));
  const lines: Buffer[] = [];
  let seen = 0;
  let rest: Buffer = Buffer.alloc(0);
  const started = cpuMicros();
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  const source = file.endsWith('.gz') ? input.pipe(createGunzip({ chunkSize: 1 << 20 })) : input;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    const buf = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
      if (nl > start) {
        if (seen % stride === 0) lines.push(Buffer.from(buf.subarray(start, nl)));
        seen += 1;
      }
      start = nl + 1;
    }
    rest = Buffer.from(buf.subarray(start));
  }
  if (rest.length > 0) {
    if (seen % stride === 0) lines.push(rest);
    seen += 1;
  }
  const read = (cpuMicros() - started) / seen;

  const ids: string[] = [];
  let t = cpuMicros();
  for (let i = 0; i < lines.length; i++) {
    const env = JSON.parse(lines[i]!.toString('utf8')) as { kind?: string; record?: { id?: unknown } };
    ids.push(`${env.kind ?? ''}:${String(env.record?.id ?? i)}:${i}`);
  }
  const parse = (cpuMicros() - t) / lines.length;
  t = cpuMicros();
  const deflated = lines.map((l) => gzipSync(l, { level: gzipLevel }));
  const deflate = (cpuMicros() - t) / lines.length;
  return { records: seen, lines, deflated, ids, read, parse, deflate };
}

/** Inserts the sampled lines into a bare table of the store's kind and returns µs of CPU per record. */
export async function measureInsert(store: BenchStore, runDir: string, s: SampledLines): Promise<number> {
  if (store.kind === 'sqlite') {
    const file = join(runDir, 'import-floor.db');
    rmSync(file, { force: true });
    const db = new Database(file);
    try {
      // The store's own write pragmas.
      db.pragma('page_size = 16384');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.exec('CREATE TABLE records (id TEXT PRIMARY KEY, body BLOB NOT NULL, gz BLOB NOT NULL)');
      const insert = db.prepare('INSERT INTO records (id, body, gz) VALUES (?, ?, ?)');
      const batch = db.transaction((from: number, to: number) => {
        for (let i = from; i < to; i++) insert.run(s.ids[i], s.lines[i], s.deflated[i]);
      });
      const t = cpuMicros();
      for (let i = 0; i < s.lines.length; i += TRANSACTION) batch(i, Math.min(s.lines.length, i + TRANSACTION));
      return (cpuMicros() - t) / s.lines.length;
    } finally {
      db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    }
  }
  return withClient(store.url, async (client) => {
    try {
      await client.query('CREATE TABLE import_floor (id text PRIMARY KEY, body bytea NOT NULL, gz bytea NOT NULL)');
      // The store's own column storage: gzip bytes kept as they are, the body compressed with lz4 where the server has it.
      await client.query('ALTER TABLE import_floor ALTER COLUMN gz SET STORAGE EXTERNAL');
      await client.query('ALTER TABLE import_floor ALTER COLUMN body SET COMPRESSION lz4').catch(() => undefined);
      const elapsed = cpuSince([process.pid, ...postgresPids()]);
      for (let i = 0; i < s.lines.length; i += TRANSACTION) {
        const to = Math.min(s.lines.length, i + TRANSACTION);
        await client.query('BEGIN');
        // Statements of at most 100 rows: the importer splits its writes to bound their size too.
        for (let j = i; j < to; j += 100) {
          const end = Math.min(to, j + 100);
          const values: unknown[] = [];
          const tuples: string[] = [];
          for (let k = j; k < end; k++) {
            tuples.push(`($${values.length + 1}, $${values.length + 2}, $${values.length + 3})`);
            values.push(s.ids[k], s.lines[k], s.deflated[k]);
          }
          await client.query(`INSERT INTO import_floor (id, body, gz) VALUES ${tuples.join(', ')}`, values);
        }
        await client.query('COMMIT');
      }
      return elapsed() / s.lines.length;
    } finally {
      await client.query('DROP TABLE IF EXISTS import_floor').catch(() => undefined);
    }
  });
}

/** The floor for one store from the shared steps and that store's insert. */
export function floorOf(s: SampledLines, insert: number): ImportFloor {
  const steps: FloorSteps = { read: s.read, parse: s.parse, deflate: s.deflate, insert };
  const cores = availableParallelism();
  const sum = steps.read + steps.parse + steps.deflate + steps.insert;
  return { records: s.records, sampled: s.lines.length, steps, cores, recordsPerSecond: (cores * 1e6) / sum };
}
