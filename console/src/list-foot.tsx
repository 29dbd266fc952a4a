/** The foot of a paged list: what is shown so far, and Load more while the API's Link names a next page. */
import type { ReactNode } from 'react';

/** The part of an infinite query the foot reads. */
interface Paging {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export function ListFoot({ pages, children }: { pages: Paging; children: ReactNode }) {
  return (
    <p className="list-foot" aria-live="polite">
      {children}
      {pages.hasNextPage && (
        <button type="button" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </p>
  );
}
