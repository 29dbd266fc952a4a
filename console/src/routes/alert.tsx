/** One alert: its header, description, notes, screening hits, duplicate customer, credential results, audit trail and transactions. */
import { getRouteApi, Link, useLocation } from '@tanstack/react-router';
import type { Alert } from '../../../src/contract/index.js';
import type { FieldClass } from '../../../src/contract/field-classes.js';
import { useAlert, useCustomerCompany } from '../api.js';
import { inboxFiltersOf } from './alerts.js';
import { alertTitle, Badge, Classified, ErrorNote, instant, isMasked, Withheld } from '../format.js';
import { AuditTimeline, ScreeningHits } from './alert-audit.js';
import { CredentialResults, DuplicateCustomers } from './alert-results.js';
import { Transactions } from './alert-transactions.js';
import { PrintButton } from '../printing.js';

const route = getRouteApi('/alerts/$alertId');

export function AlertView() {
  const { alertId } = route.useParams();
  const alert = useAlert(alertId);
  // The inbox's filters as the row link left them in the history entry: back to the same list.
  const inboxSearch = useLocation({ select: (l) => l.state.inboxSearch });
  return (
    <article className="alert-view" id="content" tabIndex={-1}>
      <p className="back">
        <Link to="/alerts" search={inboxFiltersOf(inboxSearch ?? {})}>
          ← Alerts
        </Link>
      </p>
      {alert.isPending && <p>Loading…</p>}
      {alert.isError && (
        <>
          <h1>Alert</h1>
          <ErrorNote error={alert.error} retry={alert.refetch} />
        </>
      )}
      {alert.data !== undefined && <AlertBody alert={alert.data.record} withheld={alert.data.withheld} />}
    </article>
  );
}

function AlertBody({ alert, withheld }: { alert: Alert; withheld: ReadonlySet<FieldClass> }) {
  const screeningWithheld = alert.screeningProviderData == null && withheld.has('screening');
  const hits = alert.screeningProviderData?.searchResult.hits ?? [];
  const transactions = alert.transactions ?? [];
  const notes = alert.notes ?? [];
  return (
    <>
      <header className="alert-head">
        <div className="title-row">
          <h1>{alertTitle(alert)}</h1>
          <PrintButton what="this alert" />
        </div>
        <p className="badges">
          <Badge kind="severity" value={alert.severity} /> <Badge kind="status" value={alert.status} />
          <span className="tag">{alert.category}</span> <span className="tag">{alert.type}</span>
        </p>
        <dl className="facts">
          <dt>Assignee</dt>
          <dd>{alert.assignedTo ?? 'unassigned'}</dd>
          <dt>Seen</dt>
          <dd>{alert.seen ? 'yes' : 'no'}</dd>
          <dt>Customer</dt>
          <dd>
            <CustomerLinks customerId={alert.customerId} />
          </dd>
          <dt>Created</dt>
          <dd>
            {instant(alert.createdAt)} by {alert.createdBy}
          </dd>
          <dt>Updated</dt>
          <dd>
            {instant(alert.updatedAt)} by {alert.updatedBy}
          </dd>
          <dt>Audit entries</dt>
          <dd>{alert.audits.length}</dd>
          {(alert.reason !== null || withheld.has('pii')) && (
            <>
              <dt>Reason</dt>
              <dd>
                <Classified value={alert.reason} scope="pii" withheld={withheld} none="none given" />
              </dd>
            </>
          )}
        </dl>
      </header>

      <section aria-labelledby="description">
        <h2 id="description">Description</h2>
        <p>
          <Classified value={alert.description} scope="pii" withheld={withheld} none={<span className="muted">No description.</span>} />
        </p>
      </section>

      <section aria-labelledby="notes">
        <h2 id="notes">Notes ({notes.length})</h2>
        {notes.length === 0 ? (
          <p className="muted">No notes.</p>
        ) : (
          <ul className="notes">
            {notes.map((note) => (
              <li key={note.id}>
                <strong>
                  <Classified value={note.name} scope="pii" withheld={withheld} />
                </strong>{' '}
                <span className="muted">— {note.createdBy}, {instant(note.createdAt)}</span>
                {note.description !== null ? (
                  <p>{note.description}</p>
                ) : (
                  withheld.has('pii') && (
                    <p>
                      <Withheld what="Text" scope="pii" />
                    </p>
                  )
                )}
                <NoteDocuments documents={note.documents ?? []} withheld={withheld} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="hits">
        <h2 id="hits">Screening hits {screeningWithheld ? '(withheld)' : `(${hits.length})`}</h2>
        {screeningWithheld ? (
          <p>
            <Withheld what="Screening provider data" scope="screening" />
          </p>
        ) : (
          <ScreeningHits hits={hits} withheld={withheld} />
        )}
      </section>

      <section aria-labelledby="duplicate">
        <h2 id="duplicate">Duplicate customer</h2>
        <DuplicateCustomers data={alert.duplicateData} withheld={withheld} />
      </section>

      <section aria-labelledby="results">
        <h2 id="results">Credential results ({alert.results?.length ?? 0})</h2>
        <CredentialResults results={alert.results} withheld={withheld} />
      </section>

      <section aria-labelledby="audit-trail">
        <h2 id="audit-trail">Audit trail ({alert.audits.length})</h2>
        <AuditTimeline audits={alert.audits} />
      </section>

      <section aria-labelledby="transactions">
        <h2 id="transactions">Transactions ({transactions.length})</h2>
        <Transactions transactions={transactions} />
      </section>
    </>
  );
}

/**
 * The alert's customer: a company links to its company file under its name; any other customer
 * (an individual: the API serves company files only, and answers 404 for one) links only to its executions.
 */
function CustomerLinks({ customerId }: { customerId: string }) {
  const company = useCustomerCompany(customerId);
  const executions = (
    <Link to="/customers/$customerId/executions" params={{ customerId }}>
      executions
    </Link>
  );
  if (company.data !== undefined && company.data !== null) {
    return (
      <>
        <Link to="/companies/$companyId" params={{ companyId: customerId }}>
          {company.data.name}
        </Link>{' '}
        <span className="muted">(company file)</span> · {executions}
        <br />
        <code className="id">{customerId}</code>
      </>
    );
  }
  return (
    <>
      <code>{customerId}</code> {company.data === null && <span className="muted">(individual customer, no company file)</span>} · {executions}
    </>
  );
}

type NoteDocument = NonNullable<NonNullable<Alert['notes']>[number]['documents']>[number];

/**
 * A note's documents, each opened through the signed URL its alert answer carries (a new tab); a
 * withheld URL or file name says so (a `[redacted]` URL is no link).
 */
function NoteDocuments({ documents, withheld }: { documents: readonly NoteDocument[]; withheld: ReadonlySet<FieldClass> }) {
  if (documents.length === 0) return null;
  return (
    <ul className="note-documents" aria-label="Documents of the note">
      {documents.map((doc) => {
        const name = isMasked(doc.filename) ? 'Document' : doc.filename;
        return (
          <li key={doc.id}>
            {isMasked(doc.presignedUrl) ? (
              <>
                {name} (<Withheld what="File" scope="documents" />)
              </>
            ) : doc.presignedUrl === '' ? (
              <>
                {name} <span className="muted">(no file)</span>
              </>
            ) : (
              <a href={doc.presignedUrl} target="_blank" rel="noopener noreferrer">
                {name}
              </a>
            )}
            {isMasked(doc.filename) && (
              <>
                {' '}
                (<Withheld what="File name" scope="pii" />)
              </>
            )}{' '}
            <span className="muted">
              {[doc.mimetype, doc.description ?? (withheld.has('pii') ? 'description withheld (needs pii:read)' : null), `${instant(doc.createdAt)} by ${doc.createdBy}`]
                .filter((t) => t !== null && t !== '')
                .join(' · ')}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
