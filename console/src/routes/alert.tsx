/** One alert: its header, description, notes, screening hits, duplicate customer, credential results, audit trail and transactions. */
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Alert } from '../../../src/contract/index.js';
import { useAlert, useCustomerCompany } from '../api.js';
import { inboxFiltersOf } from './alerts.js';
import { Badge, ErrorNote, instant } from '../format.js';
import { AuditTimeline, ScreeningHits } from './alert-audit.js';
import { CredentialResults, DuplicateCustomers } from './alert-results.js';
import { Transactions } from './alert-transactions.js';
import { PrintButton } from '../printing.js';

const route = getRouteApi('/alerts/$alertId');

export function AlertView() {
  const { alertId } = route.useParams();
  const alert = useAlert(alertId);
  return (
    <article className="alert-view">
      <p className="back">
        <Link to="/alerts" search={(prev) => inboxFiltersOf(prev)}>
          ← Alerts
        </Link>
      </p>
      {alert.isPending && <p>Loading…</p>}
      {alert.isError && <ErrorNote error={alert.error} />}
      {alert.data !== undefined && <AlertBody alert={alert.data} />}
    </article>
  );
}

function AlertBody({ alert }: { alert: Alert }) {
  const hits = alert.screeningProviderData?.searchResult.hits ?? [];
  const transactions = alert.transactions ?? [];
  const notes = alert.notes ?? [];
  return (
    <>
      <header className="alert-head">
        <div className="title-row">
          <h1>{alert.name}</h1>
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
          {alert.reason !== null && (
            <>
              <dt>Reason</dt>
              <dd>{alert.reason}</dd>
            </>
          )}
        </dl>
      </header>

      <section aria-labelledby="description">
        <h2 id="description">Description</h2>
        <p>{alert.description ?? <span className="muted">No description.</span>}</p>
      </section>

      <section aria-labelledby="notes">
        <h2 id="notes">Notes ({notes.length})</h2>
        {notes.length === 0 ? (
          <p className="muted">No notes.</p>
        ) : (
          <ul className="notes">
            {notes.map((note) => (
              <li key={note.id}>
                <strong>{note.name}</strong> <span className="muted">— {note.createdBy}, {instant(note.createdAt)}</span>
                {note.description !== null && <p>{note.description}</p>}
                <NoteDocuments documents={note.documents ?? []} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="hits">
        <h2 id="hits">Screening hits ({hits.length})</h2>
        <ScreeningHits hits={hits} />
      </section>

      <section aria-labelledby="duplicate">
        <h2 id="duplicate">Duplicate customer</h2>
        <DuplicateCustomers data={alert.duplicateData} />
      </section>

      <section aria-labelledby="results">
        <h2 id="results">Credential results ({alert.results?.length ?? 0})</h2>
        <CredentialResults results={alert.results} />
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

/** A note's documents, each opened through the signed URL its alert answer carries (a new tab). */
function NoteDocuments({ documents }: { documents: readonly NoteDocument[] }) {
  if (documents.length === 0) return null;
  return (
    <ul className="note-documents" aria-label="Documents of the note">
      {documents.map((doc) => (
        <li key={doc.id}>
          <a href={doc.presignedUrl} target="_blank" rel="noopener noreferrer">
            {doc.filename}
          </a>{' '}
          <span className="muted">{[doc.mimetype, doc.description, `${instant(doc.createdAt)} by ${doc.createdBy}`].filter((t) => t !== null && t !== '').join(' · ')}</span>
        </li>
      ))}
    </ul>
  );
}
