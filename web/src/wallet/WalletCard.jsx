// The dashboard's wallet box: which wallet the account has linked, which one the browser wallet
// has connected, which browser wallet to use when there are several, and the next step
// (connect, link by signature, add the token).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sameAddress, shortWallet } from '../core/index.js';
import settings from '../settings.js';
import { addToken, connectWallet, linkWallet, storedWallet, useConnectedAccount } from './wallet.js';
import { Link } from 'react-router';
import { choose, current, useWallets } from './discovery.js';

/** On a phone the page can open inside a wallet app's own browser, where the wallet is. */
const onPhone = () => typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches;
const walletApps = (href) => {
  const url = new URL(href);
  return [
    ['MetaMask', `https://metamask.app.link/dapp/${url.host}${url.pathname}${url.search}`],
    ['Trust Wallet', `https://link.trustwallet.com/open_url?coin_id=966&url=${encodeURIComponent(href)}`],
  ];
};

/** No wallet in this browser: what one is for, the FAQ's guide, and on a phone the wallet apps. */
function NoWallet() {
  const { t } = useTranslation();
  return (
    <div className="no-wallet" data-testid="no-wallet">
      <p className="muted">
        {t('wallet-none-here', { product: settings.product })}{' '}
        <Link to="/dashboardfaqs/wallet">{t('wallet-guide-link')}</Link>
      </p>
      {onPhone() && (
        <ul className="plain-list wallet-apps">
          {walletApps(window.location.href).map(([app, href]) => (
            <li key={app}>
              <a className="button secondary small" href={href} rel="noreferrer noopener">
                {t('wallet-open-in', { app })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** With several browser wallets (EIP-6963), which one this app uses: each by its name and icon. */
function WalletChoice() {
  const { t } = useTranslation();
  const { all, inUse } = useWallets();
  if (all.length < 2) return null;
  return (
    <fieldset className="wallet-choice" data-testid="wallet-choice">
      <legend>{t('wallet-choose')}</legend>
      {all.map(({ info }) => (
        <label key={info.uuid}>
          <input
            type="radio"
            name="wallet-choice"
            value={info.rdns}
            checked={inUse === info.rdns}
            onChange={() => choose(info.rdns)}
          />
          {info.icon && <img src={info.icon} alt="" width="20" height="20" />}
          <span translate="no">{info.name}</span>
        </label>
      ))}
    </fieldset>
  );
}

export default function WalletCard() {
  const { t } = useTranslation();
  // Wallets announce themselves after the page starts: the box shows again when one does.
  useWallets();
  const [account, setAccount] = useConnectedAccount();
  const [linked, setLinked] = useState(storedWallet);
  const [busy, setBusy] = useState(null);

  const run = (name, work) => async () => {
    setBusy(name);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };
  const connect = run('connect', async () => {
    const connected = await connectWallet();
    if (connected) setAccount(connected);
  });
  const link = run('link', async () => {
    const wallet = await linkWallet(account);
    if (wallet) setLinked(wallet);
  });
  const mismatch = linked && account && !sameAddress(linked, account);

  return (
    <section className="summary-box wallet-card" aria-labelledby="wallet-card-title" data-testid="wallet-card">
      <h2 id="wallet-card-title">{t('wallet-card-title')}</h2>
      <dl className="wallet-facts">
        <dt>{t('wallet-linked-label')}</dt>
        <dd data-testid="wallet-linked" translate="no">
          {linked ? shortWallet(linked) : t('wallet-none')}
        </dd>
        <dt>{t('wallet-connected-label')}</dt>
        <dd data-testid="wallet-connected" translate="no">
          {account ? shortWallet(account) : t('wallet-none')}
        </dd>
      </dl>
      <WalletChoice />
      {!current() && <NoWallet />}
      {mismatch && (
        <p className="form-error" role="alert">
          {t('wallet-mismatch')}
        </p>
      )}
      {!linked && account && <p className="muted">{t('wallet-link-help')}</p>}
      <div className="wallet-actions">
        {!account && (
          <button
            type="button"
            className="button"
            onClick={connect}
            disabled={busy !== null}
            aria-busy={busy === 'connect'}
          >
            {t('wallet-connect')}
          </button>
        )}
        {account && !linked && (
          <button type="button" className="button" onClick={link} disabled={busy !== null} aria-busy={busy === 'link'}>
            {busy === 'link' ? t('wallet-linking') : t('wallet-link')}
          </button>
        )}
        {account && (
          <button type="button" className="button secondary" onClick={run('token', addToken)} disabled={busy !== null}>
            {t('add-token.button', { product: settings.product })}
          </button>
        )}
      </div>
    </section>
  );
}
