/** `compliance-read consume`: imports envelopes from a JetStream stream until SIGTERM, each batch committed before it is acknowledged. */
import { Command } from 'commander';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createLogger } from '../app/logger.js';
import { storeOptionsOf } from '../config/load-config.js';
import type { SettingName } from '../config/settings.js';
import { startMetricsServer } from '../http/metrics-exposure.js';
import type { StreamConsumer } from '../ingest/stream-consumer.js';
import { openStore } from '../store/open-store.js';
import { configFrom, withSettings } from './config-options.js';
import { withDbOption } from './store-option.js';

const CONSUME_SETTINGS: SettingName[] = [
  'natsUrl',
  'natsStream',
  'natsSubject',
  'natsDurable',
  'natsDeadLetterSubject',
  'natsBatch',
  'natsAckWait',
  'consumeMetricsPort',
  'host',
  'gzipLevel',
  'logLevel',
  'pgPoolSize',
  'pgStatementTimeout',
];

/** Builds the consume command. */
export function consumeCommand(): Command {
  return withSettings(withDbOption(new Command('consume')), CONSUME_SETTINGS)
    .description('import envelopes (one per message) from a NATS JetStream stream through a durable consumer, until SIGTERM')
    .action(async (opts: Record<string, unknown>) => {
      const config = configFrom(opts);
      // Loaded here: the NATS client would otherwise be loaded by every command, serve's start-up included.
      const { StreamConsumer } = await import('../ingest/stream-consumer.js');
      const logger = createLogger(config);
      const store = await openStore(config.databaseUrl, { ...storeOptionsOf(config, 'bulk writes'), bulkWrites: true });
      const registry = new Registry();
      collectDefaultMetrics({ register: registry });
      let consumer: StreamConsumer;
      try {
        consumer = await StreamConsumer.start(store, {
          url: config.natsUrl,
          stream: config.natsStream,
          subject: config.natsSubject,
          durable: config.natsDurable,
          deadLetterSubject: config.natsDeadLetterSubject,
          batch: config.natsBatch,
          ackWaitMs: config.natsAckWait,
          gzipLevel: config.gzipLevel === 0 ? null : config.gzipLevel,
          registry,
          log: (level, message, fields) => logger[level](fields ?? {}, message),
        });
      } catch (err) {
        await store.close();
        throw err;
      }
      const metrics = config.consumeMetricsPort === undefined ? undefined : await startMetricsServer({ registry }, config.host, config.consumeMetricsPort);
      logger.info({ stream: config.natsStream, subject: config.natsSubject, durable: config.natsDurable, metrics: metrics?.url }, 'consuming');
      let signalled = false;
      const stop = (): void => {
        if (signalled) return;
        signalled = true;
        logger.info('stopping: the batch in hand is committed and acknowledged first');
        void consumer.stop();
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      try {
        await consumer.finished();
      } finally {
        await metrics?.close();
        await store.close();
      }
      logger.info({ ...consumer.counts }, 'stopped');
      if (!signalled) throw new Error('the stream consumer ended without a signal: the connection to NATS closed or the durable consumer was deleted');
    });
}
