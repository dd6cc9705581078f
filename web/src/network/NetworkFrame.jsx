// What the activation node and rank pages share: the title, no chain configured, the network
// data loading or failed, and the connected wallet (with the connect button) for their actions.
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { connectWallet, useConnectedAccount } from '../wallet/wallet.js';
import Spinner from '../common/Spinner.jsx';
import useNetwork from './useNetwork.js';

export default function NetworkFrame({ titleKey, className, children }) {
  const { t } = useTranslation();
  const [account, setAccount] = useConnectedAccount();
  const network = useNetwork();
  const available = Boolean(settings.chain?.activationNode && settings.chain?.claimDistributor);
  return (
    <section className={`page network-page ${className ?? ''}`}>
      <h1>{t(titleKey)}</h1>
      {network.error && (
        <p className="notice error" role="alert">
          {t(network.error.code ?? 'error-internal')}
        </p>
      )}
      {!available && (
        <p className="notice error" role="alert">
          {t('network-unavailable')}
        </p>
      )}
      {network.data
        ? children({
            data: network.data,
            reload: network.reload,
            account,
            connect: async () => setAccount(await connectWallet()),
            available,
          })
        : !network.error && <Spinner />}
    </section>
  );
}
