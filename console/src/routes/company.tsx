/** The company file: its standing and ids, its beneficiaries, its claims and its documents (opened by their signed URLs). */
import { DataTable } from '../data-table.js';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { getRouteApi, Link, useLocation } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import type { Beneficiary, CompanyClaim, CompanyDetails, CustomerDocument } from '../../../src/contract/index.js';
import type { FieldClass } from '../../../src/contract/field-classes.js';
import { isServiceFile, useCompany } from '../api.js';
import { PrintButton } from '../printing.js';

// pdf.js loads with the first PDF shown, never with the console's first screen.
const PdfPreview = lazy(() => import('../pdf-preview.js'));
import { Classified, ErrorNote, instant, Withheld } from '../format.js';
import { companySearchOf } from './companies.js';

const route = getRouteApi('/companies/$companyId');

export function CompanyView() {
  const { companyId } = route.useParams();
  const company = useCompany(companyId);
  // The list's search and filters as the row link left them in the history entry: back to the same list.
  const listSearch = useLocation({ select: (l) => l.state.companiesSearch });
  return (
    <article className="company-view" id="content" tabIndex={-1}>
      <p className="back">
        <Link to="/companies" search={companySearchOf(listSearch ?? {})}>
          ← Companies
        </Link>
      </p>
      {company.isPending && <p>Loading…</p>}
      {company.isError && (
        <>
          <h1>Company</h1>
          <ErrorNote error={company.error} retry={company.refetch} />
        </>
      )}
      {company.data !== undefined && <CompanyFile company={company.data.record} withheld={company.data.withheld} />}
    </article>
  );
}

/** The company's name as its claims give it (the record itself carries none). */
function nameOf(company: CompanyDetails): string | undefined {
  return company.companyClaims?.find((c) => c.companyName)?.companyName ?? undefined;
}

/** A `dt`/`dd` pair, left out when the record has no value. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** When and by whom, as one line. */
function stamp(at: string | null | undefined, by: string | null | undefined): string | undefined {
  if ((at ?? null) === null && (by ?? null) === null) return undefined;
  return `${instant(at)}${by ? ` by ${by}` : ''}`;
}

function CompanyFile({ company, withheld }: { company: CompanyDetails; withheld: ReadonlySet<FieldClass> }) {
  const name = nameOf(company);
  return (
    <>
      <header className="alert-head company-head">
        <div className="title-row">
          <h1>{name ?? 'Unnamed company'}</h1>
          <PrintButton what="this company file" />
        </div>
        <p className="badges">
          {company.status && <span className="badge badge-status">{company.status}</span>}
          {company.riskScore && <span className={`badge badge-${company.riskScore.toLowerCase()}`}>Risk {company.riskScore}</span>}
          {company.onboardingLevel && <span className="tag">{company.onboardingLevel}</span>}
        </p>
        <dl className="facts">
          <Fact label="Id">
            <code>{company.id}</code>
          </Fact>
          <Fact label="External customer id">{company.externalCustomerId}</Fact>
          <Fact label="External id">{company.externalId}</Fact>
          <Fact label="Created">{stamp(company.createdAt, company.createdBy)}</Fact>
          <Fact label="Updated">{stamp(company.updatedAt, company.updatedBy)}</Fact>
          <Fact label="Reason">{company.reason}</Fact>
        </dl>
      </header>
      <Beneficiaries company={company} withheld={withheld} />
      <Claims claims={company.companyClaims ?? []} withheld={withheld} />
      <Documents documents={company.documents ?? []} withheld={withheld} />
    </>
  );
}

interface BeneficiaryRow extends Beneficiary {
  kind: 'Individual' | 'Company';
}

/** The table's meta: which classes this key is not shown, for a cell to say "withheld" rather than "—". */
interface BeneficiaryTableMeta {
  withheld: ReadonlySet<FieldClass>;
}
const withheldOf = (meta: unknown): ReadonlySet<FieldClass> => (meta as BeneficiaryTableMeta | undefined)?.withheld ?? new Set();

const beneficiary = createColumnHelper<BeneficiaryRow>();
const BENEFICIARY_COLUMNS = [
  beneficiary.accessor('name', { header: 'Name', cell: (c) => <Classified value={c.getValue()} scope="pii" withheld={withheldOf(c.table.options.meta)} /> }),
  beneficiary.accessor('kind', { header: 'Kind' }),
  beneficiary.accessor('beneficiaryType', { header: 'Type', cell: (c) => c.getValue() ?? '—' }),
  beneficiary.accessor('beneficiaryPositions', { header: 'Positions', cell: (c) => (c.getValue() ?? []).join(', ') || '—' }),
  beneficiary.accessor('ownershipPercentage', {
    header: 'Ownership',
    cell: (c) => {
      const share = c.getValue();
      return share === null || share === undefined ? '—' : `${share.toLocaleString('en', { maximumFractionDigits: 2 })} %`;
    },
    meta: { className: 'num' },
  }),
  beneficiary.accessor('inRegistry', { header: 'In registry', cell: (c) => (c.getValue() === true ? 'yes' : c.getValue() === false ? 'no' : '—') }),
  beneficiary.accessor('status', { header: 'Status', cell: (c) => c.getValue() ?? '—' }),
  beneficiary.accessor('email', { header: 'E-mail', cell: (c) => <Classified value={c.getValue()} scope="pii" withheld={withheldOf(c.table.options.meta)} /> }),
];

function Beneficiaries({ company, withheld }: { company: CompanyDetails; withheld: ReadonlySet<FieldClass> }) {
  const rows = useMemo<BeneficiaryRow[]>(
    () => [
      ...(company.beneficiaries?.individualBeneficiaries ?? []).map((b) => ({ ...b, kind: 'Individual' as const })),
      ...(company.beneficiaries?.companyBeneficiaries ?? []).map((b) => ({ ...b, kind: 'Company' as const })),
    ],
    [company],
  );
  const table = useReactTable({ data: rows, columns: BENEFICIARY_COLUMNS, getCoreRowModel: getCoreRowModel(), getRowId: (b, i) => b.id ?? String(i), meta: { withheld } satisfies BeneficiaryTableMeta });
  return (
    <section aria-labelledby="beneficiaries">
      <h2 id="beneficiaries">Beneficiaries ({rows.length})</h2>
      {rows.length === 0 ? (
        <p className="muted">No beneficiaries.</p>
      ) : (
        <DataTable table={table} className="beneficiaries" labelledBy="beneficiaries" />
      )}
    </section>
  );
}

function Claims({ claims, withheld }: { claims: readonly CompanyClaim[]; withheld: ReadonlySet<FieldClass> }) {
  // Contact and address fields arrive null without pii:read: said once per claim rather than left out silently.
  const contacts = withheld.has('pii');
  return (
    <section aria-labelledby="claims">
      <h2 id="claims">Company claims ({claims.length})</h2>
      {claims.length === 0 && <p className="muted">No claims.</p>}
      {claims.map((claim, i) => (
        <article key={claim.id ?? i} className="claim" aria-labelledby={`claim-${i}`}>
          <h3 id={`claim-${i}`}>
            {claim.companyName ?? 'Claim'} {claim.type && <span className="tag">{claim.type}</span>}
          </h3>
          <dl className="facts">
            <Fact label="Issuer (sub)">{claim.sub && <code>{claim.sub}</code>}</Fact>
            <Fact label="Created">{stamp(claim.createdAt, claim.createdBy)}</Fact>
            <Fact label="Updated">{stamp(claim.updatedAt, claim.updatedBy)}</Fact>
            <Fact label="Registration no.">{claim.registrationNumber}</Fact>
            <Fact label="Registered at">{claim.registrationLocation}</Fact>
            <Fact label="Incorporated on">{claim.incorporatedOn}</Fact>
            <Fact label="Country">{claim.country}</Fact>
            <Fact label="Tax id">{claim.taxId}</Fact>
            <Fact label="Control scheme">{claim.controlScheme}</Fact>
            {contacts && (
              <Fact label="Addresses, e-mail, phone">
                <Withheld scope="pii" />
              </Fact>
            )}
            <Fact label="Legal address">{claim.legalAddress}</Fact>
            <Fact label="Postal address">{claim.postalAddress !== claim.legalAddress ? claim.postalAddress : undefined}</Fact>
            <Fact label="Other addresses">{(claim.addresses ?? []).filter((a) => a !== claim.legalAddress && a !== claim.postalAddress).join('; ')}</Fact>
            <Fact label="E-mail">{claim.email}</Fact>
            <Fact label="Phone">{claim.phone}</Fact>
            {/* Shown as text, never a link: the address comes from the record, not from the service. */}
            <Fact label="Website">{claim.website}</Fact>
            <Fact label="Beneficiaries claimed">
              {(claim.beneficiaries ?? []).length === 0
                ? undefined
                : (claim.beneficiaries ?? [])
                    .map((b) => `${b.type ?? 'beneficiary'}${(b.positions ?? []).length > 0 ? ` (${b.positions!.join(', ')})` : ''}${b.shareSize != null ? ` ${b.shareSize} %` : ''}`)
                    .join('; ')}
            </Fact>
          </dl>
        </article>
      ))}
    </section>
  );
}


function Documents({ documents, withheld }: { documents: readonly CustomerDocument[]; withheld: ReadonlySet<FieldClass> }) {
  return (
    <section aria-labelledby="documents">
      <h2 id="documents">Documents ({documents.length})</h2>
      {documents.length === 0 ? (
        <p className="muted">No documents.</p>
      ) : (
        <ul className="documents">
          {documents.map((doc, i) => {
            const name = doc.metadata.name ?? doc.document.filename ?? doc.documentId ?? `document ${i + 1}`;
            // An empty URL is a document without a file; null is withheld from a key without documents:read.
            const url = doc.document.presignedUrl === '' ? undefined : (doc.document.presignedUrl ?? undefined);
            const mimetype = doc.document.mimetype ?? doc.metadata.mediaType ?? '';
            return (
              <li key={doc.documentId ?? i}>
                <div className="doc-text">
                  <strong>{name}</strong>{' '}
                  <span className="tag">{doc.metadata.documentType ?? doc.documentType ?? 'document'}</span>
                  <div className="muted">
                    {[mimetype, doc.document.description, instant(doc.createdAt)].filter((t) => t !== '' && t !== null && t !== undefined && t !== '—').join(' · ')}
                  </div>
                  {withheld.has('pii') && (
                    <div>
                      <Withheld what="File name and description" scope="pii" />
                    </div>
                  )}
                  {url === undefined ? (
                    doc.document.presignedUrl === null && withheld.has('documents') ? (
                      <Withheld what="File" scope="documents" />
                    ) : (
                      <span className="muted">No file URL.</span>
                    )
                  ) : (
                    <a href={url} target="_blank" rel="noopener noreferrer" className="doc-link">
                      Open {name}
                    </a>
                  )}
                </div>
                {url !== undefined && mimetype.startsWith('image/') && isServiceFile(url) && <img className="doc-preview" src={url} alt={`Preview of ${name}`} />}
                {url !== undefined && mimetype === 'application/pdf' && isServiceFile(url) && (
                  <Suspense fallback={<span className="muted">Loading preview…</span>}>
                    <PdfPreview url={url} name={name} />
                  </Suspense>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
