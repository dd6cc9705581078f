// react-data-table-component with its loading and empty states outside the table: the library
// puts them inside its role="table" (a role="status" there, or a table with no rows), which ARIA
// forbids and screen readers announce out of place (axe: aria-required-children).
// At phone width the rows become cards: every column a labelled line, the row's actions (columns
// marked `button: true`) in full view under them, pages as on the table.
import { useState } from 'react';
import DataTable from 'react-data-table-component';
import 'react-data-table-component/css';
import Spinner from './Spinner.jsx';
import Pagination from './Pagination.jsx';
import usePhone from './usePhone.js';

const render = (column, row, index) =>
  column.cell ? column.cell(row, index, column, column.id) : (column.format?.(row, index) ?? column.selector?.(row));

function Cards({
  columns,
  data,
  keyField = 'id',
  ariaLabel,
  pagination = false,
  paginationServer = false,
  paginationTotalRows,
  paginationPerPage = 10,
  paginationDefaultPage = 1,
  paginationComponent: Pages = Pagination,
  onChangePage,
  onChangeRowsPerPage,
}) {
  const [own, setPage] = useState({ number: 1, size: paginationPerPage });
  const rowCount = paginationServer ? paginationTotalRows : data.length;
  // Server pages are the caller's (a new filter or sort sets its page back to 1); client pages
  // are kept here, and never past the last when the rows shrink (a filter).
  const page = paginationServer
    ? { number: paginationDefaultPage, size: paginationPerPage }
    : { ...own, number: Math.min(own.number, Math.max(1, Math.ceil(rowCount / own.size))) };
  const shown =
    !pagination || paginationServer ? data : data.slice((page.number - 1) * page.size, page.number * page.size);
  const fields = columns.filter((c) => !c.button && !c.omit);
  const actions = columns.filter((c) => c.button && !c.omit);
  return (
    <div className="row-cards">
      <ul aria-label={ariaLabel}>
        {shown.map((row, i) => (
          <li className="row-card" key={row[keyField]}>
            <dl>
              {fields.map((c, j) => (
                <div key={c.id ?? j} className={c.right ? 'numeric' : undefined}>
                  <dt>{c.label ?? c.name}</dt>
                  <dd>{render(c, row, i)}</dd>
                </div>
              ))}
            </dl>
            {actions.map((c, j) => (
              <div key={c.id ?? j} className="row-card-actions">
                {render(c, row, i)}
              </div>
            ))}
          </li>
        ))}
      </ul>
      {pagination && (
        <Pages
          rowsPerPage={page.size}
          rowCount={rowCount}
          currentPage={page.number}
          onChangePage={(number) => {
            setPage((p) => ({ ...p, number }));
            onChangePage?.(number, rowCount);
          }}
          onChangeRowsPerPage={(size) => {
            setPage({ size, number: 1 });
            onChangeRowsPerPage?.(size, 1);
          }}
        />
      )}
    </div>
  );
}

/**
 * `loading`: show the spinner; `empty`: what to show when `data` is empty; the rest is DataTable's.
 * A column may carry `label`, its plain name for the cards when `name` is a control (a sort header).
 */
export default function Table({ loading = false, empty, data, ...props }) {
  const phone = usePhone();
  if (loading) return <Spinner />;
  if (!data.length) return empty;
  if (phone) return <Cards data={data} {...props} />;
  return <DataTable data={data} colorMode="dark" {...props} />;
}
