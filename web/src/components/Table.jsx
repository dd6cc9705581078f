// react-data-table-component with its loading and empty states outside the table: the library
// puts them inside its role="table" (a role="status" there, or a table with no rows), which ARIA
// forbids and screen readers announce out of place (axe: aria-required-children).
import DataTable from 'react-data-table-component';
import 'react-data-table-component/css';
import Spinner from './Spinner.jsx';

/** `loading`: show the spinner; `empty`: what to show when `data` is empty; the rest is DataTable's. */
export default function Table({ loading = false, empty, data, ...props }) {
  if (loading) return <Spinner />;
  if (!data.length) return empty;
  return <DataTable data={data} colorMode="dark" {...props} />;
}
