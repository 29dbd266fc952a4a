/** `compliance-read serve`: runs the HTTP service. */
import { Command } from 'commander';
import { describeConfig } from '../config/load-config.js';
import { startService } from '../http/service.js';
import { configFrom, withSettings } from './config-options.js';

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
      const service = await startService(config);
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
