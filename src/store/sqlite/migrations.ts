/** Versioned SQLite schema; `PRAGMA user_version` records how far a file has been migrated. */

/** Each entry moves the schema one version up; never edit a released entry, append a new one. */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
  );

  -- One row per customer a project knows: from its customer record, or named by an execution.
  CREATE TABLE customers (
    project      TEXT NOT NULL,
    customer_key TEXT NOT NULL,
    has_record   INTEGER NOT NULL DEFAULT 0,
    is_company   INTEGER NOT NULL DEFAULT 0,
    version_key  TEXT,
    etag         TEXT,
    body         BLOB,
    wire         TEXT,
    gz           BLOB,
    PRIMARY KEY (project, customer_key)
  );

  CREATE TABLE alerts (
    project     TEXT NOT NULL,
    alert_key   TEXT NOT NULL,
    version_key TEXT,
    etag        TEXT NOT NULL,
    body        BLOB NOT NULL,
    wire        TEXT,
    gz          BLOB,
    PRIMARY KEY (project, alert_key)
  );

  CREATE TABLE executions (
    project      TEXT NOT NULL,
    customer_key TEXT NOT NULL,
    execution_id TEXT NOT NULL,
    sort_key     TEXT NOT NULL,
    status       TEXT,
    object_types INTEGER NOT NULL,
    scenario_ids TEXT NOT NULL,
    etag         TEXT NOT NULL,
    body         BLOB NOT NULL,
    wire         TEXT,
    gz           BLOB,
    PRIMARY KEY (project, customer_key, execution_id)
  );
  -- The page index: keyset range scans in either order; status and rule types are checked
  -- from the index before the row (and its body) is read.
  CREATE INDEX executions_page ON executions
    (project, customer_key, sort_key, execution_id, status, object_types);

  -- Executions by scenario they ran, in page order, so a scenarioId filter is a range scan too.
  CREATE TABLE execution_scenarios (
    project      TEXT NOT NULL,
    customer_key TEXT NOT NULL,
    scenario_id  TEXT NOT NULL,
    sort_key     TEXT NOT NULL,
    execution_id TEXT NOT NULL,
    PRIMARY KEY (project, customer_key, scenario_id, sort_key, execution_id)
  ) WITHOUT ROWID;

  CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    project    TEXT NOT NULL,
    name       TEXT,
    scopes     TEXT NOT NULL,
    hash       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT
  );
  `,
  `
  -- Append-only: who read (or tried to read) which record, when, with which answer.
  CREATE TABLE access_log (
    id         INTEGER PRIMARY KEY,
    at         TEXT NOT NULL,
    key_id     TEXT,
    project    TEXT NOT NULL,
    route      TEXT NOT NULL,
    record_id  TEXT,
    status     INTEGER NOT NULL,
    request_id TEXT NOT NULL,
    client     TEXT NOT NULL
  );
  CREATE INDEX access_log_by_time ON access_log (project, at);
  CREATE INDEX access_log_by_record ON access_log (project, record_id, at);
  `,
  `
  -- The per-record index of the access log is built in sorted batches (access-log-rows.ts), not
  -- row by row: a random key per read rewrote one whole index page per logged read. Rows with an
  -- id above access_log_indexed_upto are not in it yet; queries scan that short tail.
  DROP INDEX access_log_by_record;
  CREATE TABLE access_log_by_record (
    project   TEXT NOT NULL,
    record_id TEXT NOT NULL,
    at        TEXT NOT NULL,
    id        INTEGER NOT NULL,
    PRIMARY KEY (project, record_id, at, id)
  ) WITHOUT ROWID;
  INSERT INTO access_log_by_record
    SELECT project, record_id, at, id FROM access_log WHERE record_id IS NOT NULL ORDER BY project, record_id, at, id;
  INSERT INTO meta (key, value) VALUES ('access_log_indexed_upto', (SELECT coalesce(max(id), 0) FROM access_log));
  `,
];
