/** Every error code the service answers with, its HTTP status and when it happens: one catalogue for code, docs and OpenAPI. */

export const ERROR_CODES = {
  invalid_request: { status: 400, when: 'a path or query parameter, header or cursor is malformed; each problem is an item of `issues`, naming the parameter' },
  unauthorized: { status: 401, when: 'no `Authorization: Bearer` key, or the key is unknown, revoked or expired' },
  forbidden: { status: 403, when: "the key lacks the operation's scope, or a signed file URL is tampered with or expired" },
  not_found: { status: 404, when: "no such record in the key's project (a record of another project answers the same), or no such route or file" },
  method_not_allowed: { status: 405, when: 'a method the path does not answer' },
  not_acceptable: { status: 406, when: 'the `Accept` header excludes application/json' },
  payload_too_large: { status: 413, when: 'a pushed body is larger than `MAX_IMPORT_BYTES` (after gzip decoding): nothing of it is stored' },
  unsupported_media_type: { status: 415, when: 'a pushed body is not `application/x-ndjson`, or its `Content-Encoding` is neither gzip nor identity, or its transfer coding is not chunked' },
  expectation_failed: { status: 417, when: 'an `Expect` header other than `100-continue`' },
  rate_limited: { status: 429, when: "the key's request budget is spent; `Retry-After` says when to come back" },
  internal: { status: 500, when: 'an unexpected fault; logged with the request id, never detailed to the client' },
  unavailable: { status: 503, when: 'the store cannot be reached, or the client address holds `MAX_CONNECTIONS_PER_ADDRESS` connections already; retry later' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem within an error; the message starts with the parameter it is about. */
export interface Problem {
  message: string;
}

/** An error as a value: its code decides the HTTP status; it serialises to the spec's error body. */
export class ServiceError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues: readonly Problem[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = ERROR_CODES[code].status;
  }

  /** The spec's error body (part 7): message, code, issues[]. */
  body(): { message: string; code: ErrorCode; issues: Problem[] } {
    return { message: this.message, code: this.code, issues: [...this.issues] };
  }
}
