/** `compliance-read migrate`: brings a store's schema up to date, then exits. */
import { Command } from 'commander';
import { loadConfig, storeOptionsOf } from '../config/load-config.js';
import { namedBySetting } from '../config/named-by-setting.js';
import { openStore, STORE_SETTING } from '../store/open-store.js';
import { latestSchemaVersion, peekSchemaVersion } from '../store/schema-version.js';
import { withDbOption } from './store-option.js';

/** What a migrate run found and left. */
export interface MigrateReport {
  before: number;
  after: number;
  latest: number;
}

/** Migrates the store at `url` (opening a store does it) and reports its version before and after. */
export async function migrateStore(url: string, options: { poolSize?: number; statementTimeoutMs?: number } = {}): Promise<MigrateReport> {
  // The first call to reach the server names the setting to fix, as openStore does.
  const before = await namedBySetting(STORE_SETTING, peekSchemaVersion(url));
  const store = await openStore(url, options);
  try {
    return { before, after: await store.schemaVersion(), latest: await latestSchemaVersion(url) };
  } finally {
    await store.close();
  }
}

/** One line for people: what changed, or that nothing had to. */
export function describeMigration(r: MigrateReport): string {
  if (r.after > r.latest) {
    return `schema is at version ${r.after}, newer than this build's ${r.latest}: nothing applied (is an older build running?)`;
  }
  if (r.before === r.after) return `schema already at version ${r.after} (latest), nothing to apply`;
  return `schema migrated from version ${r.before} to ${r.after} (latest)`;
}

/** Builds the migrate command. */
export function migrateCommand(): Command {
  return withDbOption(new Command('migrate'))
    .description(
      'apply pending schema migrations and exit (start and serve also apply them; safe with several replicas at once)',
    )
    .option('--json', 'print the versions as one JSON object')
    .action(async (opts: { db?: string; json?: boolean }) => {
      const config = loadConfig({ databaseUrl: opts.db });
      const report = await migrateStore(config.databaseUrl, storeOptionsOf(config));
      process.stdout.write(`${opts.json ? JSON.stringify(report) : describeMigration(report)}\n`);
    });
}
