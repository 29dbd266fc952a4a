/** The `--db` option every command shares. */
import type { Command } from 'commander';
import { SETTINGS } from '../config/settings.js';

/** Adds `--db` (DATABASE_URL) to a command. */
export function withDbOption(cmd: Command): Command {
  return cmd.option(SETTINGS.databaseUrl.flag, `${SETTINGS.databaseUrl.description} [env DATABASE_URL]`);
}
