/** The Print button of a case file, and the footer every printed page carries: when, and with which key. */
import { useLayoutEffect } from 'react';
import { keyLabel } from './auth.js';
import { printPage, usePrintedAt } from './print.js';

export function PrintButton({ what }: { what: string }) {
  return (
    <button type="button" className="print-button" onClick={printPage}>
      Print<span className="visually-hidden"> {what}</span>
    </button>
  );
}

/** A CSS string of any text. */
function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, ' ')}"`;
}

/**
 * While printing, each page's bottom margin says when the page was printed (UTC) and with which key.
 * A rule added to the console's own style sheet through the CSSOM: the CSP allows no inline style.
 */
export function PrintFooter({ apiKey }: { apiKey: string }) {
  const printedAt = usePrintedAt();
  useLayoutEffect(() => {
    if (printedAt === undefined) return;
    const sheet = [...document.styleSheets].find((s) => s.href?.includes('/assets/') ?? false);
    if (sheet === undefined) return;
    const line = `Printed ${printedAt.toISOString().slice(0, 19).replace('T', ' ')} UTC · read with key ${keyLabel(apiKey)}`;
    const index = sheet.insertRule(`@page { @bottom-left { content: ${cssString(line)}; } }`, sheet.cssRules.length);
    return () => sheet.deleteRule(index);
  }, [printedAt, apiKey]);
  return null;
}
