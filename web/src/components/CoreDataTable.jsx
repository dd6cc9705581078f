// react-data-table-component in server-side mode, with the WASM core as the server (SPEC §2
// "Data table": page sizes 10/25/50/100, sort desc → asc → none, no checkboxes, height 400,
// pagination with 2 pages in range and 3 margin pages).
import { useEffect, useRef, useState } from 'react';
import Table from './Table.jsx';
import { useTranslation } from 'react-i18next';
import useRowKeys from './useRowKeys.js';
import Pagination from './Pagination.jsx';

/**
 * A header that sorts through the core's cycle and shows where it is. `aria-sort` belongs to the
 * column header (the library's cell), not to the button, so it is set there.
 */
function SortHeader({ label, column, sort, onSort }) {
  const { t } = useTranslation();
  const ref = useRef(null);
  const direction = sort?.column === column ? sort.direction : null;
  const state = direction === 'desc' ? 'descending' : direction === 'asc' ? 'ascending' : 'none';
  useEffect(() => {
    ref.current?.closest('[role="columnheader"]')?.setAttribute('aria-sort', state);
  }, [state]);
  return (
    <button
      ref={ref}
      type="button"
      className="sort-header"
      onClick={() => onSort(column)}
      title={t(`table-sort-${state}`)}
    >
      {label}
      <span aria-hidden="true" className="sort-mark">
        {direction === 'desc' ? '▼' : direction === 'asc' ? '▲' : '↕'}
      </span>
    </button>
  );
}

/**
 * `columns`: [{id, label, cell(row), width, numeric, date, action}] (a header sorts when the core's table
 * lists its column as sortable); `table`: what useCoreTable
 * answers. `numeric` columns are right-aligned (amounts and counts, tabular figures); `date`
 * columns never wrap.
 * `empty`: translation key of the empty state.
 */
/**
 * Whether the table's columns fit its box. Then it grows with the page under a sticky header;
 * otherwise it scrolls sideways inside its box (a sticky header cannot live in a scroll box).
 */
function useFits(ref) {
  const [fits, setFits] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return undefined;
    const measure = () => {
      const table = box.querySelector('.rdt_table');
      setFits(Boolean(table) && table.scrollWidth <= box.clientWidth + 1);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    measure();
    return () => observer.disconnect();
  });
  return fits;
}

/** How much of the rows stream has arrived: a bar, and the share in words once the size is known. */
function RowsProgress({ progress }) {
  const { t } = useTranslation();
  const percent = progress?.total ? Math.floor((progress.received * 100) / progress.total) : null;
  return (
    <p className="muted small rows-progress" role="status" data-testid="rows-progress">
      <span id="rows-progress-label">{t('table-loading-rows')}</span>{' '}
      <progress max={100} value={percent ?? undefined} aria-labelledby="rows-progress-label" />{' '}
      {percent !== null && <span translate="no">{t('table-loading-percent', { percent })}</span>}
    </p>
  );
}

/**
 * `preview`: rows of the table's own shape (the server's newest, with the totals) shown while the
 * whole table loads, without sorting or pages, under the stream's progress.
 */
export default function CoreDataTable({ columns, table, empty = 'table-empty', label, preview }) {
  const { t } = useTranslation();
  const keys = useRowKeys();
  const fits = useFits(keys.ref);
  const sort = table.query?.sort;
  const previewing = table.loading && preview?.length > 0;
  const rdtColumns = columns.map((c) => ({
    id: c.id,
    label: c.label,
    name:
      table.sortable.includes(c.id) && !previewing ? (
        <SortHeader label={c.label} column={c.id} sort={sort} onSort={table.sortBy} />
      ) : (
        c.label
      ),
    cell: c.date ? (row) => <span className="date-cell">{c.cell(row)}</span> : c.cell,
    width: c.width,
    minWidth: c.minWidth ?? (c.date ? '190px' : undefined),
    right: Boolean(c.numeric),
    button: Boolean(c.action),
    wrap: !c.date,
  }));
  if (previewing) {
    return (
      <div
        className={`data-table${fits ? ' fits' : ''}`}
        aria-busy="true"
        ref={keys.ref}
        onKeyDown={keys.onKeyDown}
        data-testid="table-preview"
      >
        <RowsProgress progress={table.progress} />
        <Table ariaLabel={label} columns={rdtColumns} data={preview.slice(0, table.page.size)} keyField="n" />
      </div>
    );
  }
  return (
    <div
      className={`data-table${fits ? ' fits' : ''}`}
      aria-busy={table.loading}
      ref={keys.ref}
      onKeyDown={keys.onKeyDown}
    >
      <Table
        ariaLabel={label}
        columns={rdtColumns}
        data={table.rows}
        keyField="n"
        loading={table.loading}
        empty={
          table.total > 0 ? (
            // Rows exist but the filters keep none: say so, and offer the way back.
            <div className="table-empty" data-testid="table-no-results">
              <p>{t('table-no-results')}</p>
              <button type="button" className="button secondary small" onClick={table.reset}>
                {t('filter-reset-all')}
              </button>
            </div>
          ) : (
            <p className="table-empty">{t(empty)}</p>
          )
        }
        pagination
        paginationServer
        paginationTotalRows={table.answer?.kept ?? 0}
        paginationPerPage={table.page.size}
        paginationDefaultPage={table.page.number}
        paginationComponent={Pagination}
        onChangePage={(number) => table.setPage((p) => ({ ...p, number }))}
        onChangeRowsPerPage={(size) => table.setPage({ size, number: 1 })}
      />
    </div>
  );
}
