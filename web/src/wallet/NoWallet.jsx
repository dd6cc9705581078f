// No wallet in this browser: on a phone (no provider injected, a touch screen) what to do and the
// wallet apps that open this very page in their own browser, where the wallet is; everywhere,
// what a wallet is for and the FAQ's guide. Desktops keep EIP-6963 discovery (discovery.js).
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { phoneWithoutWallet, walletAppLinks } from './walletApps.js';

export default function NoWallet() {
  const { t } = useTranslation();
  return (
    <div className="no-wallet" data-testid="no-wallet">
      {phoneWithoutWallet(false) && (
        <>
          <p data-testid="wallet-phone-help">{t('wallet-phone-help')}</p>
          <ul className="plain-list wallet-apps">
            {walletAppLinks(window.location.href, settings.chain?.chainId).map(({ app, href }) => (
              <li key={app}>
                <a className="button secondary small" href={href} rel="noreferrer noopener">
                  {t('wallet-open-in', { app })}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="muted">
        {t('wallet-none-here', { product: settings.product })}{' '}
        <Link to="/dashboardfaqs/wallet">{t('wallet-guide-link')}</Link>
      </p>
    </div>
  );
}
