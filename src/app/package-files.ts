/**
 * The installed package's own files. Every module of src/app, of dist/app and of the bundled
 * command line (dist/cli) sits two levels below the package's root, so each is found from here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../../', import.meta.url);

/** Where `npm run build` puts the analyst console. */
export const CONSOLE_DIR = fileURLToPath(new URL('dist/console/', ROOT));

/** This package's version, as package.json names it. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string }).version;
}
