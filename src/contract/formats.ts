/**
 * The string formats the contract uses, registered on an ajv instance. uuid and date-time
 * are our own (ajv-formats' uuid also takes a `urn:uuid:` prefix, and ours must agree with
 * instantKey), so is email (ajv-formats' refuses RFC 5321 mailboxes such as `user@localhost`);
 * uri comes from ajv-formats.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isAttributePath } from './attribute-path.js';
import { isCurrencyCode } from './currencies.js';
import { isDateTime } from './date-time.js';
import { isEmail } from './email.js';

export { instantKey, isDateTime, toUtcIso } from './date-time.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** True when `value` is a UUID in 8-4-4-4-12 hex form, either letter case, any version. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Adds uuid, date-time, email, uri, currency-code and attribute-path formats to `ajv`. */
export function addContractFormats(ajv: Ajv2020): Ajv2020 {
  // Under NodeNext the CJS default import is module.exports; `.default` is the plugin in
  // every loader (node, tsx, vitest) because ajv-formats sets it on the function too.
  addFormats.default(ajv, ['uri']);
  ajv.addFormat('email', { type: 'string', validate: isEmail });
  ajv.addFormat('uuid', { type: 'string', validate: isUuid });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('currency-code', { type: 'string', validate: isCurrencyCode });
  ajv.addFormat('attribute-path', { type: 'string', validate: isAttributePath });
  return ajv;
}
