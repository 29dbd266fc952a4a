/** The sign-in screen: an API key, kept for this tab only (sessionStorage). */
import { useState, type FormEvent } from 'react';
import { signIn, signOutReason } from '../auth.js';

export function SignIn() {
  const [key, setKey] = useState('');
  const reason = signOutReason();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() !== '') signIn(key);
  };
  return (
    <main className="sign-in">
      <h1>Compliance console</h1>
      {reason !== undefined && (
        <p className="error" role="alert">
          {reason}
        </p>
      )}
      <form onSubmit={submit}>
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} placeholder="crs_…" />
        <button type="submit">Sign in</button>
      </form>
      <p className="hint">
        The key needs <code>alerts:read</code> for the inbox and alerts, <code>companies:read</code> for companies and{' '}
        <code>executions:read</code> for a customer&apos;s executions.
      </p>
      <p className="hint">The key stays in this browser tab only and is forgotten when the tab closes or you sign out.</p>
    </main>
  );
}
