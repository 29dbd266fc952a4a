/**
 * Query builders that only compile: kysely writes a dialect's SQL text and parameters, and each
 * adapter runs them on its own driver (better-sqlite3, node-postgres) with its own error mapping.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

/** The SQL dialects of the two adapters. */
export type SqlDialect = 'sqlite' | 'postgres';

// Tables are named as the adapters' migrations create them; rows are read as the drivers answer.
type AnyDatabase = Record<string, Record<string, unknown>>;

function builder(dialect: SqlDialect): Kysely<AnyDatabase> {
  const sqlite = dialect === 'sqlite';
  return new Kysely<AnyDatabase>({
    dialect: {
      createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (sqlite ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
  });
}

const BUILDERS: Record<SqlDialect, Kysely<AnyDatabase>> = { sqlite: builder('sqlite'), postgres: builder('postgres') };

/** The compile-only builder of a dialect. */
export function sqlBuilder(dialect: SqlDialect): Kysely<AnyDatabase> {
  return BUILDERS[dialect];
}
