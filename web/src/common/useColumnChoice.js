// Which of a table's optional columns show. An admin's own choice (the column menu) is
// remembered per admin and table in this browser (a preference, kept when the session ends);
// an optional column they never chose shows while the table's box has room for it after the
// main columns (in the order they are listed), and a `hidden` one only when chosen. On a phone
// the rows are cards, one line per column: every column not `hidden` shows there. From 1920 px
// (4xl) a `spec` column (one the commission lists for the table) shows unless the admin turned it
// off; narrower screens keep fitting it by room, with the menu for the rest (at 1440 px the users
// table's commissioned columns need 1,446 px in a 1,132 px box: docs/product/decisions.md).
import { useSyncExternalStore, useState } from 'react';
import { BREAKPOINTS } from '../styles/breakpoints.js';
import { KEYS, readJson, readPreference, writePreference } from './storage.js';

/** Whose choice it is: the signed-in admin (the stored adminInfo may nest them under `user`). */
function adminId() {
  const info = readJson(KEYS.adminInfo) ?? {};
  const who = info.user ?? info;
  return who.email ?? who._id ?? who.id ?? '';
}

const MARGIN_PX = 32;

const WIDE = `(min-width: ${BREAKPOINTS['4xl']}px)`;
const subscribeWide = (done) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', done);
  return () => query.removeEventListener('change', done);
};
/** Whether the screen is 1920 px wide or more. */
const useWide = () =>
  useSyncExternalStore(
    subscribeWide,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );

/** The width a column asks for (whole px, as declared: '140px'), else the table library's 100 px. */
export const columnWidth = (column) => Number.parseInt(column.width ?? column.minWidth ?? '100px', 10);

/**
 * `{shown(column), choose(id, on), fitted}` for `name`'s `columns` in a box `room` px wide
 * (`phone`: shown as cards). A column's content can ask for more than its declared width: the
 * caller measures, and `trimmed` drops that many of the `fitted` ones, the last first.
 */
export default function useColumnChoice(name, columns, room, phone, trimmed = 0) {
  const key = `columns.${adminId()}.${name}`;
  const [chosen, setChosen] = useState(() => readPreference(key) ?? {});
  const wide = useWide();
  // The main columns, those the admin turned on and, on a wide screen, the commissioned ones not turned
  // off take their room first; headers and cells can ask for a little more than declared: a
  // margin before the first extra.
  const byDefault = (c) => wide && c.spec && chosen[c.id] === undefined;
  const always = columns.filter((c) => !c.optional || chosen[c.id] === true || byDefault(c));
  let left = room - MARGIN_PX - always.reduce((sum, c) => sum + columnWidth(c), 0);
  const fitting = new Set();
  for (const c of columns.filter((c) => c.optional && !c.hidden && chosen[c.id] === undefined && !byDefault(c))) {
    if (phone || columnWidth(c) <= left) {
      fitting.add(c.id);
      left -= columnWidth(c);
    }
  }
  const fitted = fitting.size;
  [...fitting].slice(fitted - Math.min(trimmed, fitted)).forEach((id) => fitting.delete(id));
  const shown = (column) => !column.optional || (chosen[column.id] ?? (byDefault(column) || fitting.has(column.id)));
  const choose = (id, on) => {
    const next = { ...chosen, [id]: on };
    setChosen(next);
    writePreference(key, next);
  };
  return { shown, choose, fitted };
}
