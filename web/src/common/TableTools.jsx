// Every admin table's filters, in one order on every page: search, dates, then the table's own
// filters; what they keep is the table's, whose bar offers its columns and its CSV
// (CoreDataTable; web/test/browser/admin-layout.test.mjs checks the order).
import { DateRange, SearchBox } from './Filters.jsx';

/** `searchKey`/`datesKey`: the boxes' label keys (none: no box); `children`: the table's own filters. */
export default function TableTools({ table, searchKey, datesKey, children }) {
  return (
    <div className="table-tools" data-testid="table-tools">
      {searchKey && <SearchBox table={table} labelKey={searchKey} />}
      {datesKey && <DateRange table={table} labelKey={datesKey} />}
      {children}
    </div>
  );
}
