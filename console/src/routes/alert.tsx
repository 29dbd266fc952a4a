/** One alert: its header, description, notes, audit count, screening hits and transactions. */
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Alert } from '../../../src/contract/index.js';
import { useAlert } from '../api.js';
import { inboxFiltersOf } from './alerts.js';
import { Badge, ErrorNote, instant } from '../format.js';
import { AuditTimeline, ScreeningHits } from './alert-audit.js';

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
        <h1>{alert.name}</h1>
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
            <Link to="/companies/$companyId" params={{ companyId: alert.customerId }}>
              <code>{alert.customerId}</code>
            </Link>
            {' · '}<Link to="/customers/$customerId/executions" params={{ customerId: alert.customerId }}>executions</Link>
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
                {(note.documents?.length ?? 0) > 0 && <p className="muted">{note.documents!.length} document(s)</p>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="hits">
        <h2 id="hits">Screening hits ({hits.length})</h2>
        <ScreeningHits hits={hits} />
      </section>

      <section aria-labelledby="audit-trail">
        <h2 id="audit-trail">Audit trail ({alert.audits.length})</h2>
        <AuditTimeline audits={alert.audits} />
      </section>

      <section aria-labelledby="transactions">
        <h2 id="transactions">Transactions ({transactions.length})</h2>
        {transactions.length === 0 ? (
          <p className="muted">No transactions.</p>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="transactions">
            <table>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Type</th>
                  <th scope="col">Direction</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                  <th scope="col">Currency</th>
                </tr>
              </thead>
              <tbody>
                {transactions.map((t, i) => (
                  <tr key={i}>
                    <td>{instant(t.transactionDate)}</td>
                    <td>{t.transactionType ?? '—'}</td>
                    <td>{t.transactionInfo?.direction ?? '—'}</td>
                    <td className="num">{t.transactionInfo?.amount ?? '—'}</td>
                    <td>{t.transactionInfo?.currencyCode ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
