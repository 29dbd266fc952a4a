/** Adds the settings table's flags to a command, and reads them back into a Config. */
import type { Command } from 'commander';
import { loadConfig, type FlagValues } from '../config/load-config.js';
import { SETTINGS, type Config, type SettingName } from '../config/settings.js';

/** Adds a flag for each named setting (all of them when none are named). */
export function withSettings(cmd: Command, names: readonly SettingName[] = Object.keys(SETTINGS) as SettingName[]): Command {
  for (const name of names) {
    const s = SETTINGS[name];
    cmd.option(s.flag, `${s.description} [env ${s.env}]`);
  }
  return cmd;
}

/** The effective configuration from a command's parsed options and the environment. */
export function configFrom(opts: Record<string, unknown>): Config {
  const flags: FlagValues = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    // commander names the --db flag `db`; every other flag matches its setting name.
    const value = name === 'databaseUrl' ? opts.db : opts[name];
    if (typeof value === 'string') flags[name] = value;
  }
  return loadConfig(flags);
}
