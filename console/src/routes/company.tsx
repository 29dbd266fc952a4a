/** A company, minimal for now: status, risk score and onboarding level (the company file comes later). */
import { getRouteApi } from '@tanstack/react-router';
import { useCompany } from '../api.js';
import { ErrorNote, instant } from '../format.js';

const route = getRouteApi('/companies/$companyId');

export function CompanyView() {
  const { companyId } = route.useParams();
  const company = useCompany(companyId);
  return (
    <article className="company-view">
      <h1>Company</h1>
      {company.isPending && <p>Loading…</p>}
      {company.isError && <ErrorNote error={company.error} />}
      {company.data !== undefined && (
        <dl className="facts">
          <dt>Name</dt>
          <dd>{company.data.companyClaims?.find((c) => c.companyName)?.companyName ?? '—'}</dd>
          <dt>Id</dt>
          <dd>
            <code>{company.data.id}</code>
          </dd>
          <dt>Status</dt>
          <dd>{company.data.status ?? '—'}</dd>
          <dt>Risk score</dt>
          <dd>{company.data.riskScore ?? '—'}</dd>
          <dt>Onboarding level</dt>
          <dd>{company.data.onboardingLevel ?? '—'}</dd>
          <dt>Updated</dt>
          <dd>{instant(company.data.updatedAt)}</dd>
        </dl>
      )}
    </article>
  );
}
