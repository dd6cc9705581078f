// The table's column menu: a checkbox per optional column (the main ones always show). It closes
// as menus do: Escape (focus back on its button) or a click outside it.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** `columns`: the table's columns; `choice`: what useColumnChoice answers. */
export default function ColumnChooser({ columns, choice }) {
  const { t } = useTranslation();
  const ref = useRef(null);
  useEffect(() => {
    const outside = (e) => {
      const menu = ref.current;
      if (menu?.open && !menu.contains(e.target)) menu.open = false;
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, []);
  const onKeyDown = (e) => {
    if (e.key !== 'Escape' || !ref.current?.open) return;
    ref.current.open = false;
    ref.current.querySelector('summary')?.focus();
    e.stopPropagation();
  };
  const optional = columns.filter((c) => c.optional);
  const choose = (c) => (e) => choice.choose(c.id, e.target.checked);
  if (!optional.length) return null;
  const shown = columns.filter(choice.shown).length;
  return (
    <details className="column-chooser" data-testid="column-chooser" ref={ref} onKeyDown={onKeyDown}>
      <summary className="button secondary small">{t('table-columns', { shown, total: columns.length })}</summary>
      <fieldset>
        <legend>{t('table-columns-legend')}</legend>
        {optional.map((c) => (
          <label key={c.id}>
            <input type="checkbox" checked={choice.shown(c)} onChange={choose(c)} /> {c.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
