/** How many import workers run by default (apart from the pool, whose module loads only when an import uses it). */
import { availableParallelism } from 'node:os';

/** Workers by default: every core but the one the importer itself (reading, writing) uses. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}
