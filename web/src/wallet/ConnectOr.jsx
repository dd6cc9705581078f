// The button of a member action on chain: the wallet's connect button until the action needs
// nothing more than a click, then the action's, disabled while a reason stands or it runs.
import { useTranslation } from 'react-i18next';

export default function ConnectOr({ connect, onConnect, onClick, disabled, describedBy, children }) {
  const { t } = useTranslation();
  return connect ? (
    <button type="button" className="button" onClick={onConnect}>
      {t('wallet-connect')}
    </button>
  ) : (
    <button type="button" className="button" onClick={onClick} disabled={disabled} aria-describedby={describedBy}>
      {children}
    </button>
  );
}
