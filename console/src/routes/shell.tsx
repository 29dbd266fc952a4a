/** The frame of every screen: the header (company search, project, key, sign-out), or the sign-in screen without a key. */
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useId } from 'react';
import { queryClient, useProject } from '../api.js';
import { keyLabel, signOut, useApiKey } from '../auth.js';
import { SignIn } from './sign-in.js';
import { PrintFooter } from '../printing.js';

export function Shell() {
  const key = useApiKey();
  if (key === undefined) return <SignIn />;
  return (
    <>
      <a
        className="skip"
        href="#content"
        onClick={(e) => {
          // Past the filters to the screen's results (#content); a screen without one, to the top of main.
          e.preventDefault();
          (document.getElementById('content') ?? document.getElementById('main'))?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="top">
        <Link to="/alerts" className="brand">
          Compliance console
        </Link>
        <CompanySearch />
        <SignedIn apiKey={key} />
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <PrintFooter apiKey={key} />
    </>
  );
}

function SignedIn({ apiKey }: { apiKey: string }) {
  const project = useProject();
  return (
    <div className="who">
      <span>
        Project <strong>{project.data ?? (project.isError ? '—' : '…')}</strong>
      </span>
      <span className="key">
        Key <code>{keyLabel(apiKey)}</code>
      </span>
      <button
        type="button"
        onClick={() => {
          signOut();
          // Another key may sign in next: nothing read with this one may be shown to it.
          queryClient.clear();
        }}
      >
        Sign out
      </button>
    </div>
  );
}

/** Company search: submitting lists the matches at /console/companies?q=…; an empty search lists every company. */
function CompanySearch() {
  const navigate = useNavigate();
  const id = useId();
  // The field shows the search of the list on screen, so a reload or a shared link keeps it.
  const current = useRouterState({ select: (s) => (s.location.pathname.endsWith('/companies') ? ((s.location.search as { q?: string }).q ?? '') : '') });
  return (
    <form
      className="company-search"
      role="search"
      aria-label="Companies"
      onSubmit={(e) => {
        e.preventDefault();
        const q = String(new FormData(e.currentTarget).get('q') ?? '').trim();
        void navigate({ to: '/companies', search: q === '' ? {} : { q } });
      }}
    >
      <label htmlFor={id}>Search companies</label>
      <input id={id} key={current} name="q" type="search" defaultValue={current} maxLength={200} placeholder="name, registration no., id" />
      <button type="submit">Search</button>
    </form>
  );
}
