/**
 * `node --import tsx bench/access-log-catch-up.ts`: what one catch-up of the SQLite access log's
 * per-record table costs when the same records are read again and again (a search or list page
 * served again, a hot record). Writes `--rounds` rounds of `--batches` batches, each naming the same
 * `--records` ids (or, with `--distinct`, ids no other batch names), on a store file opened by the service's own code; each round is caught up as the
 * log's thread does (catchUpAccessLog), timed, and the per-record table's rows and the file's pages
 * written are counted. Prints one line per round and the medians.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { catchUpAccessLog } from '../src/store/sqlite/access-log-rows.js';
import { median } from './summary.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '12' },
    batches: { type: 'string', default: '170' },
    records: { type: 'string', default: '2000' },
    // Each batch names records no other batch names (reads by id spread over a large store).
    distinct: { type: 'boolean', default: false },
  },
  strict: true,
});
const rounds = Number(values.rounds);
const batchesPerRound = Number(values.batches);
const recordCount = Number(values.records);
const distinct = values.distinct === true;

const dir = mkdtempSync(join(tmpdir(), 'crs-catch-up-'));
const file = join(dir, 'log.db');
try {
  // The service's schema, then a connection of our own as the log's thread has.
  const store = await openSqliteStore(file);
  await store.close();
  const db = new Database(file);
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -65536');
  // Ids spread over the key space as UUIDs are, not in key order.
  const idOf = (n: number): string => createHash('md5').update(String(n)).digest('hex').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
  const idsOf = (first: number): string => JSON.stringify(Array.from({ length: recordCount }, (_, i) => idOf(first + i)));
  const same = idsOf(0);
  let next = 0;
  const insert = db.prepare("INSERT INTO access_log_batches (project, first_at, last_at, entries, records) VALUES ('proj-a', ?, ?, '[]', ?)");
  const rowsOf = db.prepare('SELECT count(*) FROM access_log_records').pluck();
  const ms: number[] = [];
  const walBytes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, round)).toISOString();
    db.transaction(() => {
      for (let b = 0; b < batchesPerRound; b++) insert.run(at, at, distinct ? idsOf((next += recordCount)) : same);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const t0 = performance.now();
    const covered = catchUpAccessLog(db);
    const took = performance.now() - t0;
    const wal = statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    ms.push(took);
    walBytes.push(wal);
    process.stdout.write(`round ${round + 1}: ${covered} batches caught up in ${took.toFixed(1)} ms; per-record rows ${rowsOf.get()}; write-ahead log ${(wal / 1024).toFixed(0)} KiB\n`);
  }
  db.close();
  process.stdout.write(`median: ${median(ms).toFixed(1)} ms per catch-up of ${batchesPerRound} batches × ${recordCount} ${distinct ? 'distinct ' : ''}records, write-ahead log ${(median(walBytes) / 1024).toFixed(0)} KiB\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
