/** Runs a started service until SIGTERM or SIGINT, then shuts it down gracefully. */
import type { Service } from '../app/service.js';

/** Closes `service` on the first SIGTERM/SIGINT and exits 0, or 1 when the shutdown fails. */
export function stopOnSignals(service: Service): void {
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
}
