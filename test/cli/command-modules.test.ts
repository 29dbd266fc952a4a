/**
 * The command line loads only the module of the command it runs: an import's command process holds
 * none of the server's libraries, no validator and no store driver (they live in the import's process).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'crs-cli-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A resolve hook that appends every module the process resolves to the file MODULE_LOG names.
const HOOK = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.MODULE_LOG, r.url + '\\n');
  return r;
}`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;

/** The modules the command line resolves for `args`, as URLs. */
function modulesOf(args: string[], name: string): string[] {
  const log = join(dir, `${name}.log`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, MODULE_LOG: log, HOME: dir },
  });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(log, 'utf8').trim().split('\n');
}

const SERVER_AND_STORE = ['fastify', '@fastify/', '@sinclair/typebox', 'ajv', 'better-sqlite3', '/pg/', 'kysely', '/src/http/', '/src/store/sqlite/', '/src/store/postgres/'];
const loaded = (modules: string[], part: string): string[] => modules.filter((url) => url.includes(part));

describe('the command line module graph', () => {
  it('import --help loads the import command and none of the server, validators or store drivers', () => {
    const modules = modulesOf(['import', '--help'], 'import');
    // The hook saw the modules it must see, so an empty match below means absent, not unobserved.
    expect(loaded(modules, '/src/cli/import-command.ts')).not.toHaveLength(0);
    expect(loaded(modules, '/commander/')).not.toHaveLength(0);
    for (const part of SERVER_AND_STORE) expect(loaded(modules, part), part).toEqual([]);
  }, 60_000);

  it('a command without help loads every command, the server among them', () => {
    const modules = modulesOf(['--help'], 'all');
    expect(loaded(modules, '/src/cli/serve-command.ts')).not.toHaveLength(0);
    expect(loaded(modules, 'fastify').length).toBeGreaterThan(0);
  }, 60_000);
});
