/** Named schemas for an OpenAPI 3.1 `components.schemas` section. */
import type { TSchema } from '@sinclair/typebox';
import { Alert } from './alert.js';
import { Change } from './change.js';
import { CompanyDetails } from './company.js';
import { ErrorBody } from './error-body.js';
import { Execution } from './execution.js';

/**
 * Component name -> schema: the four resources. Their parts and enumerations are titled with
 * their spec names and become components as the document meets them, so an enumeration no
 * field names (the two document types, merged in one field, and the proof-of-residence media type) is not published.
 */
export const SCHEMA_COMPONENTS: Readonly<Record<string, TSchema>> = {
  CompanyDetails,
  Execution,
  Alert,
  Change,
  ErrorBody,
};
