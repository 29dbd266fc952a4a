/** The `info` object of the OpenAPI document: what the service is and how to use it. */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../contract/operations.js';
import { DEFAULT_TTL_SECONDS } from '../../files/file-store.js';
import { SCOPES } from '../../store/api-keys.js';

/** The document's `info`: title, version, licence and a guide to authentication, errors, paging, URLs, versions. */
export function openApiInfo(options: { basePath: string; version: string }): Record<string, unknown> {
  const base = options.basePath === '' ? '/' : options.basePath;
  const minutes = DEFAULT_TTL_SECONDS / 60;
  const description = [
    'Serves compliance records to compliance tools: the KYB record of a company customer, the',
    'history of rule and scenario executions of a customer, and single alerts. Every operation is a',
    'GET answering JSON (`application/json`); records are returned exactly as they were imported.',
    '',
    '## Authentication',
    '',
    'Send an API key as `Authorization: Bearer <key>`. Each key belongs to one project and reads only',
    "that project's records: a record of another project answers 404, as if it did not exist. A key",
    `carries scopes (${SCOPES.map((s) => `\`${s}\``).join(', ')}); each operation names the one it needs.`,
    'Keys are created by an operator with `compliance-read keys create --project <id>` and revoked',
    'with `compliance-read keys revoke <id>`; a revoked or expired key is refused on its next request.',
    '',
    '## Errors',
    '',
    'Every error answers an `ErrorBody` (`message`, `code`, `issues`) with the HTTP status of its',
    'code; the `default` response of each operation lists every code and when it happens. Each',
    'answer carries `X-Request-Id`; quote it when reporting a problem. Requests over the key\'s budget',
    'answer 429 with `Retry-After`; every authenticated answer carries `RateLimit-Limit`,',
    '`RateLimit-Remaining` and `RateLimit-Reset`. The budget counts tokens: a request takes 1, and an',
    'answer costs 1 per started 32 KiB of JSON or per started 50 items, whichever is more, twice that',
    'when compressed per request; what it costs beyond 1 is charged to the next requests.',
    '',
    '## Pagination',
    '',
    `Scenario executions, alerts and companies are paged by a keyset cursor: \`limit\` sets the page size (1 to ${MAX_PAGE_SIZE},`,
    `default ${DEFAULT_PAGE_SIZE}), and while more remain the answer has a \`Link: <url>; rel="next"\``,
    'header whose URL carries the same filters and an opaque `cursor`. Follow it until no `Link` comes',
    'back. Pages stay consistent while records change: a cursor is a position, not an offset.',
    'The change feed has a `Link` on every answer, an empty one included: the URL to poll next.',
    '',
    '## Caching',
    '',
    'Answers carry a strong `ETag`; sending it back in `If-None-Match` answers 304 Not Modified',
    'with no body. Bodies are gzip-encoded whenever `Accept-Encoding` admits gzip, br-encoded only',
    'when it admits br and not gzip.',
    '',
    '## Signed document URLs',
    '',
    'Document `presignedUrl` fields are signed afresh on every read: a stored URL is never served.',
    `A URL lives ${minutes} minutes by default (SIGNED_URL_TTL) and needs no API key: its signature is`,
    'the credential, covering the file, its expiry, name and type. A tampered or expired URL answers',
    '403; read the record again for a fresh one.',
    '',
    '## Versioning',
    '',
    `The interface is versioned by its base path, \`${base}\`: an incompatible change gets a new base`,
    'path. Within one, additions may appear (fields, parameters, error codes), so clients should',
    'ignore members they do not know.',
  ].join('\n');
  return {
    title: 'Customer Compliance Read Service',
    version: options.version,
    summary: 'Read-only access to company details, scenario executions and alerts',
    description,
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  };
}
