// Customer documents (SPEC 2.2.3): proof of residence, company documents and video KYC, each
// with the metadata its kind carries and a stored file that really exists once the demo is loaded.
import type { Faker } from '@faker-js/faker';
import { HOUR_MS, MINUTE_MS, between, dateOnly, isoAt, pickOffset, timeOnly } from './dates.js';
import type { CustomerIdentity } from './identities.js';
import { postcodeFor } from './places.js';
import { type ProjectContext, pickActor } from './projects.js';
import { type DocumentSink, type StoredFile, extensionFor, storedFile, storedMimetype } from './stored-files.js';
import { randomUuid, randomAlnum, pick } from './seeding.js';
import * as names from './names.js';

export interface CustomerDocument {
  documentId: string;
  customerId: string;
  documentType: 'proof_of_residence' | 'company_document' | 'video_kyc';
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
  document: StoredFile;
}

export interface DocumentContext {
  faker: Faker;
  project: ProjectContext;
  customer: CustomerIdentity;
  sink: DocumentSink;
  /** Uploads happen between onboarding start and this instant. */
  untilMs: number;
}

const POR_DOC_TYPES = ['Gas_bill', 'Internet_bill', 'Electricity_bill', 'Rent_agreement', 'Bank_statement'] as const;
const POR_MEDIA_TYPES = ['application/pdf', 'application/pdf', 'image/jpeg', 'image/jpg', 'image/png'] as const;
const VIDEO_MEDIA_TYPES = ['video/mp4', 'video/mp4', 'video/webm', 'video/quicktime'] as const;

const COMPANY_DOC_LABELS = {
  INCORPORATION_CERT: 'certificate-of-incorporation',
  INCORPORATION_ARTICLES: 'articles-of-association',
  SHAREHOLDER_REGISTRY: 'register-of-shareholders',
} as const;
export type CompanyDocType = keyof typeof COMPANY_DOC_LABELS;
export const COMPANY_DOC_TYPES = Object.keys(COMPANY_DOC_LABELS) as CompanyDocType[];

interface Envelope {
  createdMs: number;
  updatedMs: number;
  createdBy: string;
  updatedBy: string;
  offset: number;
}

function envelope(ctx: DocumentContext): Envelope {
  const { faker, project, customer } = ctx;
  const createdMs = between(faker, customer.createdMs + 5 * MINUTE_MS, Math.max(customer.createdMs + 5 * MINUTE_MS, ctx.untilMs - HOUR_MS));
  // Most documents are never touched again; some are re-reviewed later.
  const updatedMs = faker.number.float() < 0.7 ? createdMs : between(faker, createdMs, ctx.untilMs);
  const createdBy = faker.number.float() < 0.6 ? `customer:${customer.externalCustomerId}` : pickActor(faker, project);
  return { createdMs, updatedMs, createdBy, updatedBy: updatedMs === createdMs ? createdBy : pickActor(faker, project), offset: pickOffset(faker, 0.15) };
}

function baseMetadata(ctx: DocumentContext, name: string, createdMs: number): Record<string, unknown> {
  return {
    journeyId: `jrn_${randomAlnum(ctx.faker, 20, 'lower')}`,
    name,
    entryDate: dateOnly(createdMs),
    entryTime: timeOnly(createdMs),
  };
}

function assemble(ctx: DocumentContext, documentType: CustomerDocument['documentType'], env: Envelope, metadata: Record<string, unknown>, file: StoredFile): CustomerDocument {
  return {
    documentId: randomUuid(ctx.faker),
    customerId: ctx.customer.id,
    documentType,
    metadata,
    createdAt: isoAt(env.createdMs, env.offset),
    updatedAt: isoAt(env.updatedMs, env.offset),
    createdBy: env.createdBy,
    updatedBy: env.updatedBy,
    document: file,
  };
}

/** A proof-of-residence document (utility bill, bank statement, ...) at the customer's address. */
export function proofOfResidence(ctx: DocumentContext): CustomerDocument {
  const { faker, customer } = ctx;
  const env = envelope(ctx);
  const docType = pick(faker, POR_DOC_TYPES);
  const mediaType = pick(faker, POR_MEDIA_TYPES);
  const filename = `${docType.toLowerCase().replace('_', '-')}-${dateOnly(env.createdMs).slice(0, 7)}.${extensionFor(mediaType)}`;
  const place = customer.place;
  const metadata: Record<string, unknown> = {
    ...baseMetadata(ctx, filename, env.createdMs),
    country: place.alpha3,
    documentType: docType,
    mediaType,
    ...(['GBR', 'USA', 'IRL'].includes(place.alpha3) ? { county: faker.location.county() } : {}),
    city: pick(faker, place.cities),
    streetName: names.streetName(faker),
    postalCode: postcodeFor(faker, place),
    isSandbox: faker.number.float() < 0.05,
  };
  const file = storedFile(faker, ctx.project, ctx.sink, {
    filename,
    mimetype: storedMimetype(mediaType),
    description: `${docType.replace('_', ' ')} for ${customer.name}`,
    createdMs: env.createdMs,
    createdBy: env.createdBy,
  });
  return assemble(ctx, 'proof_of_residence', env, metadata, file);
}

/** A corporate document (certificate, articles, shareholder register) of a company customer. */
export function companyDocument(ctx: DocumentContext, docType: CompanyDocType): CustomerDocument {
  const { faker, customer } = ctx;
  const env = envelope(ctx);
  // Registries issue PDFs; a scan of the paper register is the occasional exception.
  const mediaType = faker.number.float() < 0.85 ? 'application/pdf' : 'image/png';
  const filename = `${COMPANY_DOC_LABELS[docType]}.${extensionFor(mediaType)}`;
  const metadata: Record<string, unknown> = {
    ...baseMetadata(ctx, filename, env.createdMs),
    country: customer.place.alpha3,
    documentType: docType,
    mediaType,
    isSandbox: false,
  };
  const file = storedFile(faker, ctx.project, ctx.sink, {
    filename,
    mimetype: mediaType,
    description: `${COMPANY_DOC_LABELS[docType].replace(/-/g, ' ')} of ${customer.name}`,
    createdMs: env.createdMs,
    createdBy: env.createdBy,
  });
  return assemble(ctx, 'company_document', env, metadata, file);
}

/** A recorded video identification session of the customer or a company representative. */
export function videoKyc(ctx: DocumentContext): CustomerDocument {
  const { faker, customer } = ctx;
  const env = envelope(ctx);
  const mediaType = pick(faker, VIDEO_MEDIA_TYPES);
  const filename = `video-kyc-${dateOnly(env.createdMs)}.${extensionFor(mediaType)}`;
  const metadata: Record<string, unknown> = {
    ...baseMetadata(ctx, filename, env.createdMs),
    mediaType,
    isSandbox: faker.number.float() < 0.05,
  };
  const file = storedFile(faker, ctx.project, ctx.sink, {
    filename,
    mimetype: mediaType,
    description: `Video identification session with ${customer.name}`,
    createdMs: env.createdMs,
    createdBy: env.createdBy,
  });
  return assemble(ctx, 'video_kyc', env, metadata, file);
}
