// CSV of exactly the rows the filters keep, written by the core with exact amounts.
import { useTranslation } from 'react-i18next';

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

export function CsvButton({ table, name }) {
  const { t } = useTranslation();
  const download = () => {
    // The rows are those of the range applied last (a refused one changes nothing).
    const { start, end } = table.applied ?? table.query;
    saveCsv(table.csv(), start && end ? `${name}-${start}-${end}.csv` : `${name}.csv`);
  };
  return (
    <button
      type="button"
      className="button secondary small"
      disabled={!table.answer?.kept}
      onClick={download}
      data-tool="csv"
    >
      {t('table-export-csv')}
    </button>
  );
}
