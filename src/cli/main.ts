#!/usr/bin/env node
/** The `compliance-read` command line. */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/load-config.js';

/** Each command's module, loaded only when needed: a command's process holds no other command's libraries. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  start: async () => (await import('./start-command.js')).startCommand(),
  demo: async () => (await import('./demo-command.js')).demoCommand(),
  import: async () => (await import('./import-command.js')).importCommand(),
  consume: async () => (await import('./consume-command.js')).consumeCommand(),
  serve: async () => (await import('./serve-command.js')).serveCommand(),
  keys: async () => (await import('./keys-command.js')).keysCommand(),
  files: async () => (await import('./files-command.js')).filesCommand(),
  'access-log': async () => (await import('./access-log-command.js')).accessLogCommand(),
  migrate: async () => (await import('./migrate-command.js')).migrateCommand(),
  copy: async () => (await import('./copy-command.js')).copyCommand(),
  erase: async () => (await import('./erase-command.js')).eraseCommand(),
  prune: async () => (await import('./prune-command.js')).pruneCommand(),
};

const program = new Command('compliance-read')
  .description('Customer Compliance Read Service: import, serve and manage compliance records')
  .showHelpAfterError()
  .exitOverride();

// A named command loads alone; anything else (help, a typo, no command) needs every command's description.
const named = Object.hasOwn(COMMANDS, process.argv[2] ?? '') ? [process.argv[2]!] : Object.keys(COMMANDS);
for (const name of named) program.addCommand(await COMMANDS[name]!());

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode;
  } else if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`compliance-read: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
