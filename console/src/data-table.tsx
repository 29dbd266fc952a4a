/** A TanStack table as plain, accessible markup: a focusable, labelled region holding a <table>. */
import { flexRender, type Table } from '@tanstack/react-table';

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
    <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={labelledBy}>
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
    </div>
  );
}
