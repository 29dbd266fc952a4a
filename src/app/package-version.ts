/** Reads the version package.json names. */
import { readFileSync } from 'node:fs';

/** This package's version (package.json sits two levels up from both src/app and dist/app). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
