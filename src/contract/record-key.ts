/** How record ids become lookup keys. */

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The lookup key of an id: uuids compare case-insensitively (RFC 9562), so they are keyed in
 * lower case while the record keeps the case it was given; any other id is keyed as written.
 */
export function recordKey(id: string): string {
  return UUID.test(id) ? id.toLowerCase() : id;
}
