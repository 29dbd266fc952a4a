/**
 * The rows of a long list worth rendering: those near the window's viewport (TanStack Virtual, the
 * page's own scroll), with the space of the others kept as padding; every row while printing.
 */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { usePrintedAt } from './print.js';

/** Lists shorter than this render whole: virtualising them would cost more than it saves. */
export const VIRTUAL_FROM = 40;

export interface VirtualRows {
  /** Put on the list's element: its place on the page is where the rows start. */
  ref: (element: HTMLElement | null) => void;
  /** Indexes of the rows to render, in order. */
  indexes: number[];
  /** Space of the rows above and below the rendered ones, in pixels. */
  before: number;
  after: number;
  /** Put on each rendered row (with `data-index`), so its real height replaces the estimate; undefined when all render. */
  measure: ((element: Element | null) => void) | undefined;
}

export function useVirtualRows(count: number, estimate: number): VirtualRows {
  const printing = usePrintedAt() !== undefined;
  const element = useRef<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  const whole = printing || count < VIRTUAL_FROM;
  const virtualizer = useWindowVirtualizer({ count, estimateSize: () => estimate, overscan: 6, scrollMargin: margin, enabled: !whole });
  // The list's offset from the top of the document changes as the sections above it load.
  useLayoutEffect(() => {
    if (element.current !== null) setMargin(Math.round(element.current.getBoundingClientRect().top + window.scrollY));
  });
  const ref = useCallback((el: HTMLElement | null) => {
    element.current = el;
  }, []);
  if (whole) return { ref, indexes: Array.from({ length: count }, (_, i) => i), before: 0, after: 0, measure: undefined };
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  return {
    ref,
    indexes: items.map((item) => item.index),
    before: first === undefined ? 0 : first.start - margin,
    after: last === undefined ? 0 : Math.max(0, virtualizer.getTotalSize() - (last.end - margin)),
    measure: virtualizer.measureElement,
  };
}
