/** Damages a SQLite file under the connections that have it open, as a failing disk would. */
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Overwrites every page of the file past its 100-byte header, once its write-ahead log has been checkpointed into it. */
export function damageSqliteFile(file: string): void {
  const other = new Database(file);
  other.pragma('wal_checkpoint(TRUNCATE)');
  other.close();
  const fd = openSync(file, 'r+');
  try {
    const size = fstatSync(fd).size;
    writeSync(fd, Buffer.alloc(size - 100, 0xa5), 0, size - 100, 100);
  } finally {
    closeSync(fd);
  }
}
