/** Starts a child process running a module beside the caller, from the built JavaScript or the TypeScript sources alike. */
import { fork, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A child process running `name` (without extension) next to `callerUrl`, with an IPC channel that
 * carries structured clones, and Node's flags of this process followed by `options.execArgv`. From
 * dist the module is plain JavaScript beside its caller (`WORKERS` in scripts/bundle.ts); from the
 * sources (tests, tsx) the child registers the TypeScript loader unless those flags already do.
 */
export function forkModule(callerUrl: string, name: string, options: { execArgv: string[]; env: NodeJS.ProcessEnv; stdio: StdioOptions }): ChildProcess {
  const fromSources = callerUrl.endsWith('.ts');
  const file = fileURLToPath(new URL(`./${name}.${fromSources ? 'ts' : 'js'}`, callerUrl));
  const loader = fromSources && !process.execArgv.some((a) => a.includes('tsx')) ? ['--import', import.meta.resolve('tsx')] : [];
  return fork(file, [], { execArgv: [...process.execArgv, ...loader, ...options.execArgv], env: options.env, stdio: options.stdio, serialization: 'advanced' });
}
