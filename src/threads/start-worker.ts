/** Starts a worker thread from a module beside the caller, from the built JavaScript or the TypeScript sources alike. */
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A Worker running `name` (without extension) next to `callerUrl`. From dist the module is plain
 * JavaScript (the bundle puts every worker beside its callers: `WORKERS` in scripts/bundle.ts);
 * from the sources (tests, tsx) the worker first registers the TypeScript loader.
 */
export function startWorker(callerUrl: string, name: string, workerData?: unknown, resourceLimits?: ResourceLimits, options: { stdin?: boolean } = {}): Worker {
  const common = { workerData, resourceLimits, stdin: options.stdin === true };
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), common);
  const file = new URL(`./${name}.ts`, callerUrl).href;
  return new Worker(`import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(file)}); });`, { eval: true, ...common });
}
