/** Alert `duplicateData` (SPEC 2.4.2): the original customer and the suspected duplicate. */
import { Type, type Static } from '@sinclair/typebox';
import { Maybe, Uuid } from './schema-helpers.js';

export const DuplicateParty = Type.Object(
  {
    customerId: Uuid(),
    customerInfo: Maybe(Type.String()),
    profilePicture: Maybe(Type.String()),
    idDocumentUrl: Maybe(Type.String()),
  },
  { title: 'DuplicateParty' },
);
export type DuplicateParty = Static<typeof DuplicateParty>;

export const DuplicateData = Type.Object(
  { original: DuplicateParty, duplicate: DuplicateParty },
  { title: 'DuplicateData' },
);
export type DuplicateData = Static<typeof DuplicateData>;
