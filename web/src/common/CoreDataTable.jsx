// react-data-table-component in server-side mode, with the WASM core as the server
// (docs/product/screens.md#data-tables: page sizes 10/25/50/100, sort desc → asc → none, no
// checkboxes, height 400, pagination with 2 pages in range and 3 margin pages).
import { useEffect, useRef, useState } from 'react';
import Table from './Table.jsx';
import { useTranslation } from 'react-i18next';
import useRowKeys from './useRowKeys.js';
import Pagination from './Pagination.jsx';
import ColumnChooser from './ColumnChooser.jsx';
import { CsvButton } from './Exports.jsx';
import useColumnChoice from './useColumnChoice.js';
import usePhone from './usePhone.js';

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
 * Whether the table's columns fit its box, and whether columns wait past its right edge. A
 * table that fits grows with the page under a sticky header; otherwise it scrolls sideways
 * inside its box (a sticky header cannot live in a scroll box), its first columns pinned, with a
 * shade on the edge where more columns wait.
 */
function useOverflow(ref) {
  const [state, setState] = useState({ fits: null, moreRight: false, room: 0, headers: 0 });
  useEffect(() => {
    const box = ref.current;
    if (!box) return undefined;
    const scroller = box.querySelector('.rdt_responsiveWrapperScroll');
    const measure = () => {
      const table = box.querySelector('.rdt_table');
      // null: no table to measure yet (loading, no rows, cards).
      const fits = table ? table.scrollWidth <= box.clientWidth + 1 : null;
      const moreRight =
        !fits && Boolean(scroller) && scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1;
      const room = box.clientWidth;
      // How many columns the measured table had: the library shows a column change a render
      // after ours, and a width measured before it says nothing about the new columns.
      const headers = table ? table.querySelectorAll('.rdt_TableCol').length : 0;
      setState((s) =>
        s.fits === fits && s.moreRight === moreRight && s.room === room && s.headers === headers
          ? s
          : { fits, moreRight, room, headers },
      );
    };
    // The table too: the library applies a column change in a render of its own, after this
    // component's, and only the table's new width says so.
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    const table = box.querySelector('.rdt_table');
    if (table) observer.observe(table);
    scroller?.addEventListener('scroll', measure, { passive: true });
    measure();
    return () => {
      observer.disconnect();
      scroller?.removeEventListener('scroll', measure);
    };
  });
  return state;
}

/** Box widths this close count as the same for the columns shown (a classic scrollbar is 15 px). */
const SAME_ROOM_PX = 24;

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
 * The columns as react-data-table-component takes them: a sortable header when the core's table
 * sorts by the column (and `sorting`), dates that never wrap, the first two pinned.
 */
function tableColumns(declared, table, choice, sorting) {
  const sort = table.query?.sort;
  return declared.map((c, i) => ({
    id: c.id,
    label: c.label,
    name:
      table.sortable.includes(c.id) && sorting ? (
        <SortHeader label={c.label} column={c.id} sort={sort} onSort={table.sortBy} />
      ) : (
        c.label
      ),
    cell: c.date ? (row) => <span className="date-cell">{c.cell(row)}</span> : c.cell,
    width: c.width,
    minWidth: c.minWidth,
    right: Boolean(c.numeric),
    button: Boolean(c.action),
    wrap: !c.date,
    omit: !choice.shown(c),
    pinned: i < 2 ? 'left' : undefined,
  }));
}

/** The bar above the table: a cue when columns lie to the right, then the table's actions. */
function TableBar({ more, children }) {
  const { t } = useTranslation();
  return (
    <div className="table-bar">
      <p className="muted small" data-testid="table-more-columns">
        {more ? t('table-more-columns') : ''}
      </p>
      <div className="table-actions">{children}</div>
    </div>
  );
}

/** No rows at all (`empty`'s text), or rows the filters keep none of: said, with the way back. */
function NoRows({ table, empty }) {
  const { t } = useTranslation();
  return table.total > 0 ? (
    <div className="table-empty" data-testid="table-no-results">
      <p>{t('table-no-results')}</p>
      <button type="button" className="button secondary small" onClick={table.reset}>
        {t('filter-reset-all')}
      </button>
    </div>
  ) : (
    <p className="table-empty">{t(empty)}</p>
  );
}

/**
 * `columns`: [{id, label, cell(row), width, numeric, date, action, optional, hidden}] (a header
 * sorts when the core's table lists its column as sortable); `table`: what useCoreTable answers.
 * `numeric` columns are right-aligned (amounts and counts, tabular figures); `date` columns never
 * wrap; `optional` ones the admin may hide in the column menu (`hidden` until they choose), the
 * others always show. The first two columns (N° and who) stay in view when the rest scrolls.
 * `name`: the table's name in the remembered column choice; `csv`: the name of its CSV file
 * (the bar above the table offers it beside the column menu); `empty`: translation key of the
 * empty state; `preview`: rows of the table's own shape (the server's newest, with the totals)
 * shown while the whole table loads, without sorting or pages, under the stream's progress.
 */
export default function CoreDataTable({ name, csv, trails, columns, table, empty = 'table-empty', label, preview }) {
  const keys = useRowKeys();
  const { fits, moreRight, room, headers } = useOverflow(keys.ref);
  const phone = usePhone();
  const declared = columns.map((c) => ({ ...c, minWidth: c.minWidth ?? (c.date ? '190px' : undefined) }));
  // Optional columns shown for the room they declared, dropped one by one while the table,
  // measured, still does not fit (content can ask for more); measured again at a new width.
  // A few pixels either way (a scrollbar coming and going as rows change height) keep what was
  // measured; a new width measures again.
  const [trim, setTrim] = useState({ room: 0, count: 0 });
  const trimmed = Math.abs(trim.room - room) <= SAME_ROOM_PX ? trim.count : 0;
  const choice = useColumnChoice(name, declared, room, phone, trimmed);
  // Only a measurement of the columns now chosen trims one more (else one change trims twice).
  const showing = declared.filter(choice.shown).length;
  useEffect(() => {
    if (fits === false && !phone && headers === showing && trimmed < choice.fitted)
      setTrim((t) => ({ room: Math.abs(t.room - room) <= SAME_ROOM_PX ? t.room : room, count: trimmed + 1 }));
  }, [fits, phone, room, headers, showing, trimmed, choice.fitted]);
  const previewing = table.loading && preview?.length > 0;
  const rdtColumns = tableColumns(declared, table, choice, !previewing);
  const classes = `data-table${fits ? ' fits' : ''}${moreRight ? ' more-right' : ''}`;
  const bar = (
    <TableBar more={fits === false && moreRight}>
      <ColumnChooser columns={columns} choice={choice} />
      {csv && <CsvButton table={table} name={csv} trails={trails} />}
    </TableBar>
  );
  if (previewing) {
    return (
      <>
        {bar}
        <div className={classes} aria-busy="true" ref={keys.ref} onKeyDown={keys.onKeyDown} data-testid="table-preview">
          <RowsProgress progress={table.progress} />
          <Table ariaLabel={label} columns={rdtColumns} data={preview.slice(0, table.page.size)} keyField="n" />
        </div>
      </>
    );
  }
  return (
    <>
      {bar}
      <div className={classes} aria-busy={table.loading} ref={keys.ref} onKeyDown={keys.onKeyDown}>
        <Table
          ariaLabel={label}
          columns={rdtColumns}
          data={table.rows}
          keyField="n"
          loading={table.loading}
          empty={<NoRows table={table} empty={empty} />}
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
    </>
  );
}
