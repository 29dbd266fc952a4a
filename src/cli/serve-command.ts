/** `compliance-read serve`: runs the HTTP service. */
import { Command } from 'commander';
import { describeConfig } from '../config/load-config.js';
import { startService } from '../app/service.js';
import { configFrom, withSettings } from './config-options.js';
import { stopOnSignals } from './run-service.js';
import { tuneServingProcess } from './serving-process.js';

/** Builds the serve command. */
export function serveCommand(): Command {
  return withSettings(new Command('serve'))
    .description('serve the read API over HTTP')
    .option('--print-config', 'print the effective configuration (secrets masked) and exit')
    .action(async (opts: Record<string, unknown>) => {
      const config = configFrom(opts);
      if (opts.printConfig) {
        process.stdout.write(`${JSON.stringify(describeConfig(config), null, 2)}\n`);
        return;
      }
      tuneServingProcess();
      const service = await startService(config);
      stopOnSignals(service);
    });
}
