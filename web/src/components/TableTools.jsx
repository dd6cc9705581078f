// Every admin table's toolbar, in one order on every page: search, dates, the table's own
// filters, then CSV of what they keep (web/test/browser/admin-layout.test.mjs checks the order).
import { DateRange, SearchBox } from './Filters.jsx';
import { CsvButton } from './Exports.jsx';

/** `searchKey`/`datesKey`: the boxes' label keys (none: no box); `children`: the table's own filters. */
export default function TableTools({ table, searchKey, datesKey, csvName, children }) {
  return (
    <div className="table-tools" data-testid="table-tools">
      {searchKey && <SearchBox table={table} labelKey={searchKey} />}
      {datesKey && <DateRange table={table} labelKey={datesKey} />}
      {children}
      <CsvButton table={table} name={csvName} />
    </div>
  );
}
