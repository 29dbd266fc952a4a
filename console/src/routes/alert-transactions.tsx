/** An alert's transactions as a table; a long one renders only the rows near the viewport. */
import type { Transaction } from '../../../src/contract/index.js';
import { instant } from '../format.js';
import { useVirtualRows } from '../virtual-rows.js';
import { TableScroll } from '../data-table.js';

const COLUMNS = 5;

/** An empty row holding the height of rows not rendered, hidden from screen readers. */
function Spacer({ height }: { height: number }) {
  if (height <= 0) return null;
  return (
    <tr className="spacer" aria-hidden="true">
      <td colSpan={COLUMNS} style={{ height }} />
    </tr>
  );
}

export function Transactions({ transactions }: { transactions: readonly Transaction[] }) {
  const rows = useVirtualRows(transactions.length, 37);
  if (transactions.length === 0) return <p className="muted">No transactions.</p>;
  return (
    <TableScroll labelledBy="transactions">
      <table aria-rowcount={transactions.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Date</th>
            <th scope="col">Type</th>
            <th scope="col">Direction</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Currency</th>
          </tr>
        </thead>
        <tbody ref={rows.ref}>
          <Spacer height={rows.before} />
          {rows.indexes.map((i) => {
            const t = transactions[i]!;
            return (
              <tr key={i} data-index={i} ref={rows.measure} aria-rowindex={i + 2}>
                <td>{instant(t.transactionDate)}</td>
                <td>{t.transactionType ?? '—'}</td>
                <td>{t.transactionInfo?.direction ?? '—'}</td>
                <td className="num">{t.transactionInfo?.amount ?? '—'}</td>
                <td>{t.transactionInfo?.currencyCode ?? '—'}</td>
              </tr>
            );
          })}
          <Spacer height={rows.after} />
        </tbody>
      </table>
    </TableScroll>
  );
}
