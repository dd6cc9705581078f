// CSV of exactly the rows the filters keep, written by the core with exact amounts.
import { useTranslation } from 'react-i18next';

export function CsvButton({ table, name }) {
  const { t } = useTranslation();
  const download = () => {
    const blob = new Blob([table.csv()], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    // The rows are those of the range applied last (a refused one changes nothing).
    const { start, end } = table.applied ?? table.query;
    a.download = start && end ? `${name}-${start}-${end}.csv` : `${name}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
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
