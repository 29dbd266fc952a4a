/** `compliance-read keys create|list|revoke`: API keys, one project each. */
import { Command } from 'commander';
import { createApiKey, DEFAULT_SCOPES, SCOPES, type Scope } from '../store/api-keys.js';
import { toUtcIso } from '../contract/index.js';
import { projectIdProblem } from '../contract/project-id.js';
import { CONTROL, printable } from './printable.js';
import { withDbOption } from './store-option.js';
import { useStore } from './use-store.js';


/** Builds the keys command group. */
export function keysCommand(): Command {
  const keys = new Command('keys').description('create, list and revoke API keys');
  keys.addCommand(
    withDbOption(new Command('create'))
      .description('create a key for one project; the key is printed once, as the last line')
      .requiredOption('--project <project>', 'the project (cmsProjectId) the key reads')
      .option('--name <name>', 'a label for people')
      .option('--scopes <scopes...>', `scopes: ${SCOPES.join(', ')} (default ${DEFAULT_SCOPES.join(', ')}; records:erase and records:write only when named)`)
      .option('--expires <date>', 'expiry, an RFC 3339 date-time or a date (00:00 UTC)')
      .action(async (opts: { db?: string; project: string; name?: string; scopes?: string[]; expires?: string }) => {
        const problem = projectIdProblem(opts.project);
        if (problem !== undefined) throw new Error(`--project ${problem}, got ${printable(opts.project)}`);
        if (opts.name !== undefined && CONTROL.test(opts.name)) throw new Error(`--name must not contain control characters, got ${printable(opts.name)}`);
        const scopes = opts.scopes?.flatMap((s) => s.split(',')).filter((s) => s !== '');
        for (const s of scopes ?? []) {
          if (!(SCOPES as readonly string[]).includes(s)) throw new Error(`unknown scope ${s}; scopes are ${SCOPES.join(', ')}`);
        }
        let expiresAt: string | undefined;
        if (opts.expires !== undefined) {
          const full = /^\d{4}-\d{2}-\d{2}$/.test(opts.expires) ? `${opts.expires}T00:00:00Z` : opts.expires;
          // A leap second (:60) is the second after it.
          expiresAt = toUtcIso(full);
          if (expiresAt === undefined) throw new Error('--expires must be an RFC 3339 date-time or a YYYY-MM-DD date');
        }
        const { key, record } = await useStore(opts, (store) =>
          createApiKey(store, { project: opts.project, name: opts.name, scopes: scopes as Scope[] | undefined, expiresAt }),
        );
        process.stdout.write(`created key ${record.id} for project ${record.project} (${record.scopes.join(', ')})${record.expiresAt ? `, expires ${record.expiresAt}` : ''}\n`);
        process.stdout.write('store it now: it is not shown again\n');
        process.stdout.write(`${key}\n`);
      }),
  );
  keys.addCommand(
    withDbOption(new Command('list'))
      .description('list keys (never their secrets)')
      .option('--project <project>', 'only this project')
      .option('--json', 'as JSON')
      .action(async (opts: { db?: string; project?: string; json?: boolean }) => {
        const list = await useStore(opts, (store) => store.listApiKeys(opts.project));
        const rows = list.map(({ hash: _hash, ...k }) => k);
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(rows)}\n`);
          return;
        }
        for (const k of rows) {
          const state = k.revokedAt ? `revoked ${k.revokedAt}` : k.expiresAt ? `expires ${k.expiresAt}` : 'active';
          // One key per line whatever a stored project or name holds: control characters are shown escaped.
          process.stdout.write(`${k.id}  ${printable(k.project)}  ${k.name === null ? '-' : printable(k.name)}  ${printable(k.scopes.join(','))}  ${state}\n`);
        }
      }),
  );
  keys.addCommand(
    withDbOption(new Command('revoke'))
      .description('revoke a key; it is refused from the next request on')
      .argument('<id>', 'the key id (from keys list)')
      .action(async (id: string, opts: { db?: string }) => {
        const done = await useStore(opts, (store) => store.revokeApiKey(id, new Date().toISOString()));
        if (!done) throw new Error(`no key with id ${id}`);
        process.stdout.write(`revoked ${id}\n`);
      }),
  );
  return keys;
}
