/**
 * The first page of a same-origin PDF drawn into a canvas by pdf.js. Loaded only when a company file
 * has a PDF (a chunk of its own), its worker a file of the console build, so the page's CSP stays as it is.
 */
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Width of the preview in CSS pixels; drawn at the screen's pixel ratio so it stays sharp. */
const WIDTH = 160;

export default function PdfPreview({ url, name }: { url: string; name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<{ pages: number } | 'loading' | 'failed'>('loading');
  useEffect(() => {
    // No eval for fonts: the CSP has no 'unsafe-eval'.
    const task = getDocument({ url, isEvalSupported: false });
    let cancelled = false;
    void (async () => {
      try {
        const pdf = await task.promise;
        const page = await pdf.getPage(1);
        const base = page.getViewport({ scale: 1 });
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: (WIDTH / base.width) * ratio });
        const target = canvas.current;
        if (cancelled || target === null) return;
        target.width = Math.floor(viewport.width);
        target.height = Math.floor(viewport.height);
        await page.render({ canvas: target, viewport }).promise;
        if (!cancelled) setState({ pages: pdf.numPages });
      } catch {
        if (!cancelled) setState('failed');
      }
    })();
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [url]);
  const label = typeof state === 'object' ? `Preview of ${name}, page 1 of ${state.pages}` : `Preview of ${name}`;
  return (
    <figure className="pdf-preview" data-state={typeof state === 'object' ? 'rendered' : state}>
      <canvas ref={canvas} role="img" aria-label={label} />
      {state === 'failed' && <figcaption className="muted">No preview</figcaption>}
    </figure>
  );
}
