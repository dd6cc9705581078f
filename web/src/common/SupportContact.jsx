// Where a member writes for help, from the server's configuration (`support_email`); nothing
// when none is configured.
import { useTranslation } from 'react-i18next';
import settings from './settings.js';

export default function SupportContact() {
  const { t } = useTranslation();
  if (!settings.supportEmail) return null;
  return (
    <p className="small" data-testid="support-contact">
      {t('support-write-to')}{' '}
      <a href={`mailto:${settings.supportEmail}`} translate="no">
        {settings.supportEmail}
      </a>
    </p>
  );
}
