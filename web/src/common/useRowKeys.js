// Keyboard in data tables: one Tab stop per row — its first control — instead of one
// per control; ArrowLeft/ArrowRight move between a row's controls, ArrowUp/ArrowDown to the same
// control of the row above or below, Home/End to the first or last row. Applied to the DOM the
// table library renders, after every render.
import { useCallback, useEffect, useRef } from 'react';

const CONTROLS = 'button, a[href], input, select';

function controlsOf(row) {
  return [...row.querySelectorAll(CONTROLS)].filter((c) => !c.disabled);
}

export default function useRowKeys() {
  const ref = useRef(null);
  useEffect(() => {
    for (const row of ref.current?.querySelectorAll('.rdt_TableRow') ?? []) {
      controlsOf(row).forEach((c, i) => c.setAttribute('tabindex', i === 0 ? '0' : '-1'));
    }
  });
  const onKeyDown = useCallback((event) => {
    const row = event.target.closest?.('.rdt_TableRow');
    if (!row || !ref.current?.contains(row)) return;
    const rows = [...ref.current.querySelectorAll('.rdt_TableRow')];
    const controls = controlsOf(row);
    const at = controls.indexOf(event.target);
    if (at < 0) return;
    const r = rows.indexOf(row);
    const to = {
      ArrowRight: () => controls[Math.min(at + 1, controls.length - 1)],
      ArrowLeft: () => controls[Math.max(at - 1, 0)],
      ArrowDown: () => rows[r + 1] && (controlsOf(rows[r + 1])[at] ?? controlsOf(rows[r + 1])[0]),
      ArrowUp: () => rows[r - 1] && (controlsOf(rows[r - 1])[at] ?? controlsOf(rows[r - 1])[0]),
      Home: () => controlsOf(rows[0])[0],
      End: () => controlsOf(rows[rows.length - 1])[0],
    }[event.key]?.();
    if (!to) return;
    event.preventDefault();
    to.focus();
  }, []);
  return { ref, onKeyDown };
}
