// What an empty table says, once: what the member can do about it when the page gives it (the
// tables' text "No information available yet" under a "You have no positions yet" said the
// same thing twice), else the tables' text (docs/product/screens.md#data-tables), or that the
// filters hide every row.
import { useTranslation } from 'react-i18next';

export default function EmptyTable({ hint, filtered = false }) {
  const { t } = useTranslation();
  return (
    <div className="table-empty" data-testid="table-empty">
      <p>{filtered || !hint ? t(filtered ? 'table-no-results' : 'table-empty') : hint}</p>
    </div>
  );
}
