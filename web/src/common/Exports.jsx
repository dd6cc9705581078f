// CSV of exactly the rows the filters keep, written by the core with exact amounts.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from './toast.jsx';

/** Saves `text` as the CSV file `filename` (the browser's download). */
export function saveCsv(text, filename) {
  const blob = new Blob([text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * `trails(ids)`: for a table whose CSV has columns its rows stream leaves out (the ICO ledger's
 * wallets and transactions), what the server answers for the kept rows' ids.
 */
export function CsvButton({ table, name, trails }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    // The rows are those of the range applied last (a refused one changes nothing).
    const { start, end } = table.applied ?? table.query;
    const file = start && end ? `${name}-${start}-${end}.csv` : `${name}.csv`;
    if (!trails) return saveCsv(table.csv(), file);
    setBusy(true);
    try {
      saveCsv(table.csvWith(await trails(table.keptIds())), file);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="button secondary small"
      disabled={!table.answer?.kept || busy}
      aria-busy={busy}
      onClick={download}
      data-tool="csv"
    >
      {t('table-export-csv')}
    </button>
  );
}
