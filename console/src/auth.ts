/** The API key of this tab: kept in sessionStorage only, taken from a `#key=` link once. */
import { useSyncExternalStore } from 'react';

const STORAGE_KEY = 'compliance-console.api-key';
const listeners = new Set<() => void>();
/** Why the last session ended (shown on the sign-in screen), if it was not the analyst's choice. */
let endedBecause: string | undefined;

function notify(): void {
  for (const listener of listeners) listener();
}

/** The key in use, if signed in. */
export function currentKey(): string | undefined {
  return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
}

export function signIn(key: string): void {
  endedBecause = undefined;
  sessionStorage.setItem(STORAGE_KEY, key.trim());
  notify();
}

/** Forgets the key; `reason` tells the sign-in screen why (a refused key), none for a sign-out. */
export function signOut(reason?: string): void {
  endedBecause = reason;
  sessionStorage.removeItem(STORAGE_KEY);
  notify();
}

export function signOutReason(): string | undefined {
  return endedBecause;
}

/**
 * A `#key=<key>` fragment signs in (replacing any key in use) and is removed from the address bar
 * at once (replaceState). The browser has already recorded the URL with the key in its history by
 * then: a real key is pasted into the sign-in form (docs/console.md).
 */
export function takeKeyFromFragment(): void {
  const match = /^#key=([^&]*)/.exec(window.location.hash);
  if (match === null) return;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  let key: string;
  try {
    key = decodeURIComponent(match[1]!).trim();
  } catch {
    key = '';
  }
  if (key === '') signOut('The link’s key could not be read (it is cut or mangled). Paste the key below.');
  else signIn(key);
}

/**
 * Takes the key of a `#key=` link at load and whenever one is opened in this tab while the console
 * is open (same document: only a hashchange); `changed` runs when that replaced the key in use.
 */
export function followKeyFragments(changed: () => void): void {
  takeKeyFromFragment();
  window.addEventListener('hashchange', () => {
    const before = currentKey();
    takeKeyFromFragment();
    if (currentKey() !== before) changed();
  });
}

/** The key id shown in the header: a key reads `crs_<id>_<secret>`, and only its id is shown. */
export function keyLabel(key: string): string {
  return /^crs_[a-z0-9]{12}(?=_)/.exec(key)?.[0] ?? `${key.slice(0, 4)}…`;
}

/** The current key, re-rendering on sign-in and sign-out. */
export function useApiKey(): string | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentKey,
  );
}
