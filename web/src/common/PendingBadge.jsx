// "Pending" beside what the chain recorded in a block that is not final yet (it may still leave
// the chain); its title says what that means for this kind of record.
import { useTranslation } from 'react-i18next';

export default function PendingBadge({ help = 'chain-pending-help' }) {
  const { t } = useTranslation();
  return (
    <span className="chain-badge chain-pending" title={t(help)} data-testid="chain-pending">
      {t('chain-pending')}
    </span>
  );
}
