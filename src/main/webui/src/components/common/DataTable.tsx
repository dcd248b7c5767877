import { Fragment, type ReactNode } from 'react';
import { EmptyState, ErrorState, LoadingState } from './States';
import { tableWrap, td, th } from './ui';

/** One column: its header and, unless rows render themselves (`renderRow`), its cell for a row. */
export interface Column<T> {
  id: string;
  header?: ReactNode;
  cell?: (row: T) => ReactNode;
  /** Added to the cell's class (`font-mono`, `tabular-nums`, `text-right`, ...). */
  className?: string;
  /** The cell's data-testid. */
  testId?: string;
}

/** What the table needs of a query (a useQuery or useInfiniteQuery result fits). */
export interface TableQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** Attributes of a row: its test id and data-* values, and extra classes. */
export type RowAttributes = { className?: string } & Record<`data-${string}`, string | number | boolean | undefined>;

export interface DataTableProps<T> {
  query: TableQuery;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** data-* attributes (incl. data-testid) and classes of a row's <tr>. */
  rowProps?: (row: T) => RowAttributes;
  /** For rows with state of their own (e.g. per-row actions): renders the whole <tr>; the columns give the headers. */
  renderRow?: (row: T) => ReactNode;
  /** Shown instead of the table while there are no rows. */
  empty: { title: string; children?: ReactNode };
  errorTitle: string;
  /** data-testid of the <table>. */
  testId?: string;
  /** `card`: a bordered card with a shaded header (a page's main list); `plain`: inside a section. */
  variant?: 'card' | 'plain';
  /** Below the table (e.g. "Load more"). */
  footer?: ReactNode;
}

const rowClass = 'border-t border-slate-100';

/** A list's table with its loading, error (with retry) and empty states; columns are data. */
export function DataTable<T>({
  query,
  rows,
  columns,
  rowKey,
  rowProps,
  renderRow,
  empty,
  errorTitle,
  testId,
  variant = 'card',
  footer,
}: DataTableProps<T>) {
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState title={errorTitle} error={query.error} onRetry={() => void query.refetch()} />;
  if (rows.length === 0) return <EmptyState title={empty.title}>{empty.children}</EmptyState>;
  const card = variant === 'card';
  const table = (
    <div className={card ? tableWrap : 'overflow-x-auto'}>
      <table className="min-w-full" data-testid={testId}>
        <thead className={card ? 'bg-slate-50' : undefined}>
          <tr>
            {columns.map((c) => (
              <th key={c.id} className={th}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            if (renderRow) return <Fragment key={rowKey(row)}>{renderRow(row)}</Fragment>;
            const { className, ...attributes } = rowProps?.(row) ?? {};
            return (
              <tr key={rowKey(row)} {...attributes} className={`${rowClass} ${className ?? ''}`.trim()}>
                {columns.map((c) => (
                  <td key={c.id} className={c.className ? `${td} ${c.className}` : td} data-testid={c.testId}>
                    {c.cell?.(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
  if (footer === undefined) return table;
  return (
    <>
      {table}
      {footer}
    </>
  );
}
