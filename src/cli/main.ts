#!/usr/bin/env node
/** The `compliance-read` command line. */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/load-config.js';
import { consumeCommand } from './consume-command.js';
import { copyCommand } from './copy-command.js';
import { accessLogCommand } from './access-log-command.js';
import { demoCommand } from './demo-command.js';
import { eraseCommand } from './erase-command.js';
import { filesCommand } from './files-command.js';
import { importCommand } from './import-command.js';
import { keysCommand } from './keys-command.js';
import { migrateCommand } from './migrate-command.js';
import { pruneCommand } from './prune-command.js';
import { serveCommand } from './serve-command.js';
import { startCommand } from './start-command.js';

const program = new Command('compliance-read')
  .description('Customer Compliance Read Service: import, serve and manage compliance records')
  .showHelpAfterError()
  .exitOverride();

program.addCommand(startCommand());
program.addCommand(demoCommand());
program.addCommand(importCommand());
program.addCommand(consumeCommand());
program.addCommand(serveCommand());
program.addCommand(keysCommand());
program.addCommand(filesCommand());
program.addCommand(accessLogCommand());
program.addCommand(migrateCommand());
program.addCommand(copyCommand());
program.addCommand(eraseCommand());
program.addCommand(pruneCommand());

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
