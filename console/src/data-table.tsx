/** A TanStack table as plain, accessible markup: a <table>, in a focusable labelled region only when it scrolls sideways. */
import { flexRender, type Table } from '@tanstack/react-table';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * The wrapper of a wide table. Only when its table is wider than it does it become a Tab stop (so a
 * keyboard can scroll it) and a region, named "<heading>, table scrolling sideways" so it is not a
 * second landmark of the section's own name.
 */
export function TableScroll({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  const hint = useId();
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const check = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild !== null) observer.observe(element.firstElementChild);
    check();
    return () => observer.disconnect();
  }, []);
  return (
    <div className="table-wrap" ref={ref} {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-labelledby': `${labelledBy} ${hint}` } : {})}>
      {children}
      <span id={hint} hidden>
        table scrolling sideways
      </span>
    </div>
  );
}

/** A column's class, from its `meta: { className }` (e.g. to hide it on a phone or right-align numbers). */
function classOf(meta: unknown): string | undefined {
  return (meta as { className?: string } | undefined)?.className;
}

/** A column's header as text, for a phone's card layout to label each cell (CSS `attr(data-label)`). */
function labelOf(header: unknown): string | undefined {
  return typeof header === 'string' ? header : undefined;
}

export function DataTable<T>({ table, className, labelledBy, rowClassName }: { table: Table<T>; className: string; labelledBy: string; rowClassName?: (row: T) => string | undefined }) {
  return (
    <TableScroll labelledBy={labelledBy}>
      <table className={className}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((h) => (
                <th key={h.id} scope="col" className={classOf(h.column.columnDef.meta)}>
                  {flexRender(h.column.columnDef.header, h.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className={rowClassName?.(row.original)}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={classOf(cell.column.columnDef.meta)} data-label={labelOf(cell.column.columnDef.header)}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
