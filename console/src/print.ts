/**
 * Whether the page is being printed, and since when: a print (the Print button, the browser's own
 * print, or print media emulated) renders every virtualised row and unfolds every detail.
 */
import { useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';

const listeners = new Set<() => void>();
let printedAt: Date | undefined;

function set(value: Date | undefined): void {
  if (value === undefined && printedAt === undefined) return;
  if (value !== undefined && printedAt !== undefined) return;
  printedAt = value;
  // Synchronously: the browser lays the page out for print right after beforeprint returns.
  flushSync(() => {
    for (const listener of listeners) listener();
  });
}

let watching = false;
/** Follows the browser's print events and the print media query, once for the page. */
function watch(): void {
  if (watching) return;
  watching = true;
  window.addEventListener('beforeprint', () => set(new Date()));
  window.addEventListener('afterprint', () => set(undefined));
  const media = window.matchMedia('print');
  media.addEventListener('change', () => set(media.matches ? new Date() : undefined));
}

/** When the page started printing, or undefined when it is not being printed. */
export function usePrintedAt(): Date | undefined {
  return useSyncExternalStore(
    (listener) => {
      watch();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => printedAt,
  );
}

/** The Print button's action: everything rendered and unfolded first, then the browser's print. */
export function printPage(): void {
  set(new Date());
  window.print();
}
