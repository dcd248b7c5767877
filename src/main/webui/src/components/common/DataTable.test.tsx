import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { ApiError } from '../../api/errors';
import { DataTable, type Column, type TableQuery } from './DataTable';

interface Lab {
  slug: string;
  name: string;
  gpus: number;
}

const LABS: Lab[] = [
  { slug: 'vision', name: 'Vision Lab', gpus: 8 },
  { slug: 'nlp', name: 'NLP Lab', gpus: 16 },
];

const COLUMNS: Column<Lab>[] = [
  { id: 'name', header: 'Name', cell: (l) => l.name },
  { id: 'gpus', header: 'GPUs', cell: (l) => l.gpus, className: 'tabular-nums', testId: 'lab-gpus' },
  { id: 'actions', cell: (l) => <button type="button">open {l.slug}</button> },
];

const settled: TableQuery = { isPending: false, isError: false, error: null, refetch: () => undefined };

function renderTable(query: TableQuery, rows: readonly Lab[], extra: Partial<Parameters<typeof DataTable<Lab>>[0]> = {}) {
  return render(
    <DataTable
      query={query}
      rows={rows}
      columns={COLUMNS}
      rowKey={(l) => l.slug}
      rowProps={(l) => ({ 'data-testid': 'lab-row', 'data-slug': l.slug })}
      empty={{ title: 'No labs yet' }}
      errorTitle="Could not load the labs"
      testId="lab-table"
      {...extra}
    />,
  );
}

describe('DataTable', () => {
  it('shows the loading state while the query is pending, and no table', () => {
    renderTable({ ...settled, isPending: true }, []);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryByTestId('lab-table')).toBeNull();
  });

  it("shows the error with the problem's detail and reasons, and retries on request", () => {
    const refetch = vi.fn();
    const error = new ApiError({
      status: 503,
      code: 'Unavailable',
      title: 'Service Unavailable',
      detail: 'the database is down',
      reasons: ['retry later'],
    });
    renderTable({ isPending: false, isError: true, error, refetch }, LABS);
    const alert = screen.getByTestId('error-state');
    expect(alert.textContent).toContain('Could not load the labs');
    expect(alert.textContent).toContain('the database is down');
    expect(within(alert).getByRole('listitem').textContent).toBe('retry later');
    expect(screen.queryByTestId('lab-table')).toBeNull();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('shows the empty message (with what it holds) when there are no rows', () => {
    renderTable(settled, [], { empty: { title: 'No lab matches "gpu"', children: <p>Try another name.</p> } });
    const empty = screen.getByTestId('empty-state');
    expect(empty.textContent).toBe('No lab matches "gpu"Try another name.');
    expect(screen.queryByTestId('lab-table')).toBeNull();
  });

  it('renders a row per item with its attributes and one cell per column, headers in order', () => {
    renderTable(settled, LABS, { footer: <p data-testid="lab-footer">more</p> });
    const table = screen.getByTestId('lab-table');
    expect(Array.from(table.querySelectorAll('th')).map((th) => th.textContent)).toEqual(['Name', 'GPUs', '']);
    const rows = screen.getAllByTestId('lab-row');
    expect(rows.map((r) => r.getAttribute('data-slug'))).toEqual(['vision', 'nlp']);
    expect(Array.from(rows[1]!.querySelectorAll('td')).map((td) => td.textContent)).toEqual(['NLP Lab', '16', 'open nlp']);
    expect(screen.getAllByTestId('lab-gpus').map((td) => td.className.includes('tabular-nums'))).toEqual([true, true]);
    expect(screen.getByTestId('lab-footer').textContent).toBe('more');
  });

  it("lets rows with state of their own render themselves under the columns' headers", () => {
    renderTable(settled, LABS, {
      renderRow: (l) => (
        <tr data-testid="own-row">
          <td>{l.name.toUpperCase()}</td>
        </tr>
      ),
    });
    expect(screen.getAllByTestId('own-row').map((r) => r.textContent)).toEqual(['VISION LAB', 'NLP LAB']);
    expect(screen.queryAllByTestId('lab-row')).toHaveLength(0);
    expect(screen.getAllByRole('columnheader')).toHaveLength(3);
  });
});
