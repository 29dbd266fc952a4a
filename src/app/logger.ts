/** The service's logger. */
import pino, { type Logger } from 'pino';
import type { Config } from '../config/settings.js';
import { REDACTED, redactLogLine } from '../http/log-redaction.js';

/**
 * The service's logger: JSON lines, credentials redacted: the headers that carry them, and in the
 * written line any API key and any secret-looking query parameter (a key put in a URL, a file
 * URL's signature), whichever field (request URL, error message) holds it.
 */
export function createLogger(config: Config, destination?: pino.DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], censor: REDACTED },
    hooks: { streamWrite: redactLogLine },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
