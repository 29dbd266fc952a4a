/** The frame of every screen: the header (project, key, sign-out), or the sign-in screen without a key. */
import { Link, Outlet } from '@tanstack/react-router';
import { queryClient, useProject } from '../api.js';
import { keyLabel, signOut, useApiKey } from '../auth.js';
import { SignIn } from './sign-in.js';

export function Shell() {
  const key = useApiKey();
  if (key === undefined) return <SignIn />;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/alerts" className="brand">
          Compliance console
        </Link>
        <SignedIn apiKey={key} />
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
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
