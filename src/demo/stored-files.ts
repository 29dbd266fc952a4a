// Stored-file objects: the `document` of a customer document and the documents of alert notes.
// Each one is reported to the caller's sink so the demo can put real bytes under its objectKey.
import type { Faker } from '@faker-js/faker';
import { isoAt } from './dates.js';
import type { DemoDocumentRef } from './options.js';
import type { ProjectContext } from './projects.js';
import { randomUuid } from './seeding.js';

export interface StoredFile {
  id: string;
  objectKey: string;
  filename: string;
  mimetype: string;
  description: string | null;
  cmsProjectId: string;
  createdAt: string;
  createdBy: string;
  presignedUrl: string;
}

export type DocumentSink = ((doc: DemoDocumentRef) => void) | undefined;

export interface StoredFileInput {
  filename: string;
  mimetype: string;
  description: string | null;
  createdMs: number;
  offsetMinutes?: number;
  createdBy: string;
}

/** File extension conventionally used for a stored mimetype. */
export function extensionFor(mimetype: string): string {
  switch (mimetype) {
    case 'application/pdf':
      return 'pdf';
    case 'image/png':
      return 'png';
    case 'image/jpeg':
    case 'image/jpg':
      return 'jpg';
    case 'video/mp4':
      return 'mp4';
    case 'video/webm':
      return 'webm';
    case 'video/quicktime':
      return 'mov';
    default:
      return 'bin';
  }
}

/** Normalises metadata media types to the type a file store would record ("image/jpg" is not registered). */
export function storedMimetype(mediaType: string): string {
  return mediaType === 'image/jpg' ? 'image/jpeg' : mediaType;
}

/** Builds a stored-file object in the project and reports it to the sink. */
export function storedFile(faker: Faker, project: ProjectContext, sink: DocumentSink, input: StoredFileInput): StoredFile {
  const objectKey = randomUuid(faker);
  const file: StoredFile = {
    id: randomUuid(faker),
    objectKey,
    filename: input.filename,
    mimetype: input.mimetype,
    description: input.description,
    cmsProjectId: project.id,
    createdAt: isoAt(input.createdMs, input.offsetMinutes ?? 0),
    createdBy: input.createdBy,
    // A placeholder only: the service signs a fresh URL for the objectKey at read time.
    presignedUrl: `https://files.example.invalid/${project.id}/${objectKey}`,
  };
  sink?.({ objectKey, mimetype: input.mimetype, filename: input.filename, cmsProjectId: project.id });
  return file;
}
