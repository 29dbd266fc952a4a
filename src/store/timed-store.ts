/**
 * A Store decorator that reports how long each asynchronous call took. A Proxy rather than a
 * class, so methods added to the Store interface later are timed without touching this file.
 */

/** Receives one observation per store call: method name, ok or error, seconds, and the error of a failed call. */
export type StoreObserver = (operation: string, outcome: 'ok' | 'error', seconds: number, err?: unknown) => void;

/** Wraps `store` so every method returning a promise is timed; other members pass through. */
export function timedStore<T extends object>(store: T, observe: StoreObserver): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      let fn = wrapped.get(prop);
      if (fn === undefined) {
        fn = timed(prop, value as (...args: unknown[]) => unknown, target, observe);
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
}

function timed(operation: string, method: (...args: unknown[]) => unknown, target: object, observe: StoreObserver): (...args: unknown[]) => unknown {
  return (...args) => {
    // performance.now() is monotonic like hrtime.bigint(), without two BigInts per call.
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1e3;
    let result: unknown;
    try {
      result = method.apply(target, args);
    } catch (err) {
      // A synchronous member (apiKeysGeneration) that fails is observed too, so an outage shows wherever it is met first.
      observe(operation, 'error', seconds(), err);
      throw err;
    }
    if (!(result instanceof Promise)) return result;
    return result.then(
      (v: unknown) => {
        observe(operation, 'ok', seconds());
        return v;
      },
      (err: unknown) => {
        observe(operation, 'error', seconds(), err);
        throw err;
      },
    );
  };
}
