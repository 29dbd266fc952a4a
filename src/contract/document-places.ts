/**
 * Where the contract puts document files in a record, as member paths from the record root
 * (`[]` = every item of an array): a company's `documents[].document` (StoredFile) and an alert
 * note's `documents[]` (AlertDocument), in the alert and in its audit snapshots. These are the
 * only places whose `presignedUrl` is signed at read time; a test keeps them in step with the schemas.
 */
export const COMPANY_DOCUMENT_PATHS: readonly (readonly string[])[] = [['documents', '[]', 'document']];

export const ALERT_DOCUMENT_PATHS: readonly (readonly string[])[] = [
  ['notes', '[]', 'documents', '[]'],
  ['audits', '[]', 'record', 'notes', '[]', 'documents', '[]'],
];
