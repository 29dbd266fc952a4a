/** PostgreSQL migrations applied by kysely's Migrator, on one connection the caller holds. */
import { Kysely, PostgresDialect, sql, type DatabaseIntrospector, type PostgresPool, type PostgresPoolClient, type TableMetadata } from 'kysely';
import type pg from 'pg';
import { migrateToLatest } from '../run-migrations.js';

/** Applies what `schema` has not seen of `texts`; the Migrator's advisory lock serializes replicas. */
export async function runPostgresMigrations(client: pg.PoolClient, schema: string, texts: readonly string[]): Promise<void> {
  const kysely = new Kysely<unknown>({ dialect: new OwnSchemaDialect({ pool: oneClient(client) }, schema) });
  try {
    await migrateToLatest(kysely, texts, async (db, text) => void (await sql.raw(text).execute(db)), schema);
  } finally {
    await kysely.destroy();
  }
}

/**
 * The migrator asks whether its tables exist through the dialect's introspector, whose stock query
 * lists every schema with `has_schema_privilege(name)`: a schema another session drops meanwhile
 * fails it (3F000). This one looks in the store's own schema only.
 */
class OwnSchemaDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    const schema = this.schema;
    const getTables = async (): Promise<TableMetadata[]> => {
      const r = await sql<{ name: string }>`SELECT tablename AS name FROM pg_catalog.pg_tables WHERE schemaname = ${schema}`.execute(db);
      return r.rows.map((row) => ({ name: row.name, schema, isView: false, columns: [] }));
    };
    return {
      getSchemas: async () => (await sql<{ name: string }>`SELECT nspname AS name FROM pg_catalog.pg_namespace WHERE nspname = ${schema}`.execute(db)).rows,
      getTables,
      getMetadata: async () => ({ tables: await getTables() }),
    };
  }
}

/** A pool of one connection that stays checked out: kysely runs the migration on it. */
function oneClient(client: pg.PoolClient): PostgresPool {
  const borrowed = { query: client.query.bind(client), release: () => undefined } as unknown as PostgresPoolClient;
  return { connect: async () => borrowed, end: async () => undefined };
}
