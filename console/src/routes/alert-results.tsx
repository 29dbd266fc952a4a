/** An alert's suspected duplicate customer and its credential results, in words. */
import { Link } from '@tanstack/react-router';
import type { Credential, DuplicateData, DuplicateParty, ResultItem } from '../../../src/contract/index.js';
import { valueInWords } from '../audit-diff.js';
import type { FieldClass } from '../../../src/contract/field-classes.js';
import { Classified, instant, Withheld } from '../format.js';
import { operatorText, pathText, valueText } from '../rule-text.js';

/** `documentType` as "Document type". */
function labelOf(name: string): string {
  const words = name.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A URL from the record is text, never a link: it comes from the record, not from the service. */
function PartyFacts({ party, withheld }: { party: DuplicateParty; withheld: ReadonlySet<FieldClass> }) {
  return (
    <dl className="facts">
      <dt>Customer</dt>
      <dd>
        <code>{party.customerId}</code>
        {' · '}
        <Link to="/customers/$customerId/executions" params={{ customerId: party.customerId }}>
          executions
        </Link>
      </dd>
      <dt>Details</dt>
      <dd>
        <Classified value={party.customerInfo} scope="pii" withheld={withheld} none={<span className="muted">none given</span>} />
      </dd>
      <dt>Profile picture</dt>
      <dd>
        <Classified value={party.profilePicture} scope="documents" withheld={withheld} none={<span className="muted">none</span>} />
      </dd>
      <dt>ID document</dt>
      <dd>
        <Classified value={party.idDocumentUrl} scope="documents" withheld={withheld} none={<span className="muted">none</span>} />
      </dd>
    </dl>
  );
}

export function DuplicateCustomers({ data, withheld }: { data: DuplicateData | null | undefined; withheld: ReadonlySet<FieldClass> }) {
  if (data === null || data === undefined) return <p className="muted">No duplicate customer.</p>;
  return (
    <div className="duplicates">
      <div className="party">
        <h3>Original customer</h3>
        <PartyFacts party={data.original} withheld={withheld} />
      </div>
      <div className="party">
        <h3>Suspected duplicate</h3>
        <PartyFacts party={data.duplicate} withheld={withheld} />
      </div>
    </div>
  );
}

const CREDENTIALS = {
  IDInformation: 'ID information',
  IDImage: 'ID document images',
  SelfieImage: 'Selfie',
  IDScanSelfie: 'ID scan selfie',
  ProofOfResidence: 'Proof of residence',
  AMLScreeningsResults: 'AML screening',
} as const;

/** Subject fields not shown on a line of their own: image bytes, the holder's id, the review and entry fields (said once above). */
const HIDDEN_SUBJECT = new Set(['id', 'base64', 'base64_front', 'base64_back', 'reviewAnswer', 'reviewRejectType', 'reviewRejectLabels', 'entryDate', 'entryTime', 'isSandbox']);

/** The review outcome: GREEN approved, RED rejected with its type and labels. */
function reviewText(subject: Record<string, unknown>): string | undefined {
  const answer = subject.reviewAnswer;
  if (typeof answer !== 'string') return undefined;
  if (answer === 'GREEN') return 'approved';
  if (answer !== 'RED') return answer;
  const labels = Array.isArray(subject.reviewRejectLabels) ? subject.reviewRejectLabels.map((l) => String(l).toLowerCase().replace(/_/g, ' ')) : [];
  const kind = typeof subject.reviewRejectType === 'string' ? ` (${subject.reviewRejectType.toLowerCase()})` : '';
  return `rejected${kind}${labels.length > 0 ? `: ${labels.join(', ')}` : ''}`;
}

/**
 * The subject's facts as label and words; nested objects (personal data) one level flattened, the
 * entry's date and time as one fact, the sandbox flag only when it is set.
 */
function subjectFacts(subject: Record<string, unknown>): [string, string][] {
  const facts: [string, string][] = [];
  const entered = [subject.entryDate, subject.entryTime].filter((v): v is string => typeof v === 'string' && v !== '');
  // The entry's date and time name no zone: shown as written, claiming none (or in UTC when they carry an offset).
  if (entered.length > 0) facts.push(['Entered', instant(entered.join('T'), 'seconds')]);
  if (subject.isSandbox === true) facts.push(['Sandbox', 'yes: generated in a sandbox environment']);
  for (const [name, value] of Object.entries(subject)) {
    if (HIDDEN_SUBJECT.has(name) || value === null || value === '' || value === undefined) continue;
    if (typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, v] of Object.entries(value as Record<string, unknown>)) if (v !== null && v !== '' && v !== undefined) facts.push([labelOf(inner), valueInWords(v)]);
    } else {
      facts.push([labelOf(name), valueInWords(value)]);
    }
  }
  return facts;
}

function CredentialFacts({ credential, withheld }: { credential: Credential; withheld: ReadonlySet<FieldClass> }) {
  const subject = credential.credentialSubject;
  const review = reviewText(subject);
  return (
    <dl className="facts">
      {withheld.has('pii') && (
        <>
          <dt>Subject</dt>
          <dd>
            <Withheld what="Personal data" scope="pii" />
          </dd>
        </>
      )}
      {review !== undefined && (
        <>
          <dt>Review</dt>
          <dd>{review}</dd>
        </>
      )}
      {subjectFacts(subject).map(([label, words]) => (
        <FactPair key={label} label={label} words={words} />
      ))}
      <dt>Issued</dt>
      <dd>{instant(credential.issuanceDate)}</dd>
      <dt>Expires</dt>
      <dd>{instant(credential.expirationDate)}</dd>
      <dt>Issuer</dt>
      <dd>
        <code>{credential.issuer}</code>
      </dd>
      <dt>Revocation check</dt>
      <dd>{credential.credentialStatus.type}</dd>
    </dl>
  );
}

function FactPair({ label, words }: { label: string; words: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{words}</dd>
    </>
  );
}

/** What a result item carries, named, with its facts. */
function ResultBody({ item, withheld }: { item: ResultItem; withheld: ReadonlySet<FieldClass> }) {
  const data = item.data ?? {};
  for (const name of Object.keys(CREDENTIALS) as (keyof typeof CREDENTIALS)[]) {
    const credential = data[name];
    if (credential !== null && credential !== undefined) {
      return (
        <>
          <h3>{CREDENTIALS[name]} credential</h3>
          <CredentialFacts credential={credential} withheld={withheld} />
        </>
      );
    }
  }
  if (data.ruleData !== null && data.ruleData !== undefined) {
    const rule = data.ruleData;
    return (
      <>
        <h3>Rule</h3>
        <p>
          <code className="path">{pathText(rule.attribute.path ?? '')}</code> {operatorText(rule.operator)} <strong>{valueText(rule.value as never)}</strong>
        </p>
      </>
    );
  }
  if (data.RulesEngineInputData !== null && data.RulesEngineInputData !== undefined) {
    return (
      <>
        <h3>Signals given to the rules engine</h3>
        <dl className="facts">
          {Object.entries(data.RulesEngineInputData).map(([name, value]) => (
            <FactPair key={name} label={labelOf(name)} words={valueInWords(value)} />
          ))}
        </dl>
      </>
    );
  }
  if (data.TFHEResult !== null && data.TFHEResult !== undefined) {
    return (
      <>
        <h3>Encrypted result (TFHE)</h3>
        <p className="muted">Computed on encrypted data; not readable here ({data.TFHEResult.length} characters).</p>
      </>
    );
  }
  // The rules engine's input is withheld whole without pii:read: the item then looks empty.
  if (withheld.has('pii')) {
    return (
      <>
        <h3>Result data</h3>
        <p>
          <Withheld what="Any rules engine input" scope="pii" />
        </p>
      </>
    );
  }
  return <h3 className="muted">No result data</h3>;
}

export function CredentialResults({ results, withheld }: { results: readonly ResultItem[] | null | undefined; withheld: ReadonlySet<FieldClass> }) {
  if (results === null || results === undefined || results.length === 0) return <p className="muted">No credential results.</p>;
  return (
    <ul className="results">
      {results.map((item, i) => (
        <li key={i} className="result">
          <p className="result-head">
            <span className={`badge badge-${item.status ?? 'no-status'}`}>{item.status === null || item.status === undefined ? 'no status' : item.status.replace('-', ' ')}</span>
            {item.cmsScenarioId !== null && (
              <span className="muted">
                scenario <code>{item.cmsScenarioId}</code>
              </span>
            )}
          </p>
          <ResultBody item={item} withheld={withheld} />
        </li>
      ))}
    </ul>
  );
}
