/** Runs a started service until SIGTERM or SIGINT, then shuts it down gracefully. */
import { constants } from 'node:os';
import type { Service } from '../app/service.js';

/**
 * Closes `service` on the first SIGTERM/SIGINT and exits 0, or 1 when the shutdown fails; a
 * second signal during the drain exits at once with 128 + its number.
 */
export function stopOnSignals(service: Service): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // Exited explicitly: as a container's PID 1 a signal's default action (ending the process) never happens.
    if (stopping) process.exit(128 + constants.signals[signal]);
    stopping = true;
    // close() drains requests in flight (SHUTDOWN_GRACE_MS at most), then the limiter and the store.
    service.close().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`compliance-read: shutdown failed: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
