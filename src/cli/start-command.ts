/** `compliance-read start`: the quick start — the demo data set, then the service. */
import { Command } from 'commander';
import { startService } from '../http/service.js';
import { configFrom, withSettings } from './config-options.js';
import { runDemo } from './demo-command.js';

/** Builds the start command (what `npm start` runs). */
export function startCommand(): Command {
  return withSettings(new Command('start'))
    .description('build the demo data set (idempotent), print demo keys and curl lines, and serve')
    .action(async (opts: Record<string, unknown>) => {
      const config = configFrom(opts);
      await runDemo(config, { generator: {}, import: true, files: true, keys: true });
      const service = await startService(config);
      process.stdout.write(`\nserving on ${service.url}${config.basePath} (Ctrl-C to stop)\n`);
      const stop = (): void => {
        // close() drains requests in flight (SHUTDOWN_GRACE_MS at most), then the limiter and the store.
        service.close().then(
          () => process.exit(0),
          (err: Error) => {
            process.stderr.write(`compliance-read: shutdown failed: ${err.message}\n`);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
}
