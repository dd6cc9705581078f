// An admin table's columns from the core's one declaration (core-wasm/src/admin/declared.rs):
// each header's label, its sort and default visibility, and a plain cell by what the column
// holds. A page passes only what differs from the plain cell (a button in the cell, a width).
import { adminColumns, formatLvlx, formatUsdt, shortWallet, truncateEmail } from '../core/index.js';
import Amount from './Amount.jsx';
import Copyable from './Copyable.jsx';
import { formatDate } from './dates.js';
import TxLink from './TxLink.jsx';

const MIN_WIDTHS = {
  text: '120px',
  email: '170px',
  wallet: '130px',
  date: '190px',
  count: '110px',
  lvlx: '150px',
  usdt: '140px',
  usdtUnits: '120px',
  tx: '130px',
};
const NUMERIC = new Set(['number', 'count', 'lvlx', 'usdt', 'usdtUnits']);

/** The cell of a column of `kind` reading the row's field `id` (the column's own, or the field it names). */
function plainCell(kind, id, { language, product }) {
  const cells = {
    number: (r) => <Amount value={r[id]} />,
    count: (r) => <Amount value={r[id]} />,
    usdt: (r) => <Amount value={r[id]} unit="USDT" />,
    usdtUnits: (r) => (
      <span className="amount" translate="no">
        {formatUsdt(r[id], language)}
        <span className="unit"> USDT</span>
      </span>
    ),
    lvlx: (r) => (
      <span className="amount" translate="no">
        {formatLvlx(r[id], language)}
        <span className="unit"> {product}</span>
      </span>
    ),
    date: (r) => <span translate="no">{formatDate(r[id], language)}</span>,
    email: (r) => <Copyable value={r[id]} shown={truncateEmail(r[id])} toastKey="copied-email" />,
    tx: (r) => <TxLink hash={r[id]} />,
    wallet: (r) => <Copyable value={r[id]} shown={r[id] ? shortWallet(r[id]) : ''} toastKey="copied-wallet" />,
    text: (r) => <span translate="no">{r[id]}</span>,
  };
  return cells[kind] ?? cells.text;
}

/**
 * CoreDataTable's columns for the core's table `table` ('users' …): `t` and `language` translate
 * and format, `product` names the token; `overrides` by column id replace what a page shows
 * differently ({cell, minWidth …}).
 */
export function declaredColumns(table, { t, language, product }, overrides = {}) {
  return adminColumns(table).map((c) => ({
    id: c.id,
    label: t(c.label, { product }),
    ...(c.kind === 'number' ? { width: '70px' } : { minWidth: MIN_WIDTHS[c.kind] }),
    numeric: NUMERIC.has(c.kind),
    date: c.kind === 'date',
    optional: c.optional,
    spec: c.spec,
    cell: plainCell(c.kind, c.field ?? c.id, { language, product }),
    ...overrides[c.id],
  }));
}
