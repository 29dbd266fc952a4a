/** `compliance-read start`: the quick start — the demo data set, then the service. */
import { Command } from 'commander';
import { startService } from '../app/service.js';
import { configFrom, withSettings } from './config-options.js';
import { stopOnSignals } from './run-service.js';
import { tuneServingProcess } from './serving-process.js';
import { runDemo } from './demo-command.js';

/** Builds the start command (what `npm start` runs). */
export function startCommand(): Command {
  return withSettings(new Command('start'))
    .description('build the demo data set (idempotent), print demo keys and curl lines, and serve')
    .action(async (opts: Record<string, unknown>) => {
      const config = configFrom(opts);
      await runDemo(config, { generator: {}, import: true, files: true, keys: true });
      tuneServingProcess();
      const service = await startService(config);
      process.stdout.write(`\nserving on ${service.url}${config.basePath} (Ctrl-C to stop)\n`);
      stopOnSignals(service);
    });
}
