/** The contract's public surface: schemas, their types, enumerations and validators. */
export { StringEnum } from './string-enum.js';
export * from './enums.js';
export { CURRENCY_CODES, isCurrencyCode } from './currencies.js';
export { addContractFormats, instantKey, isDateTime, isUuid, toUtcIso } from './formats.js';
export { ATTRIBUTE_PATHS, isAttributePath } from './attribute-path.js';
export * from './company.js';
export * from './execution.js';
export * from './alert.js';
export * from './screening.js';
export * from './screening-hits.js';
export * from './alert-results.js';
export * from './duplicate-data.js';
export * from './transactions.js';
export * from './error-body.js';
export { Nullable, Maybe, OpenObject } from './schema-helpers.js';
export {
  contractAjv,
  validateErrorBody,
  validateRecord,
  type Issue,
  type RecordKind,
  type ValidationResult,
} from './validators.js';
export { SCHEMA_COMPONENTS } from './components.js';
