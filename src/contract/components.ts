/** Named schemas for an OpenAPI 3.1 `components.schemas` section. */
import type { TSchema } from '@sinclair/typebox';
import { Alert } from './alert.js';
import { CompanyDetails } from './company.js';
import { ENUM_SCHEMAS } from './enums.js';
import { ErrorBody } from './error-body.js';
import { Execution } from './execution.js';

/**
 * Component name -> schema: the four resources and every enumeration by its spec name.
 * Resource schemas embed their enumerations inline (each titled with its name), so the
 * OpenAPI generator may either keep them inline or replace them by $ref using the title.
 */
export const SCHEMA_COMPONENTS: Readonly<Record<string, TSchema>> = {
  CompanyDetails,
  Execution,
  Alert,
  ErrorBody,
  ...ENUM_SCHEMAS,
};
