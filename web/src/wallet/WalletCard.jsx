// The dashboard's wallet box: which wallet the account has linked, which one the browser wallet
// has connected, which browser wallet to use when there are several, and the next step
// (connect, link by signature, add the token).
import { useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { sameAddress, shortWallet } from '../core/index.js';
import settings from '../common/settings.js';
import { addToken, connectWallet, linkWallet, useConnectedAccount, useLinkedWallet } from './wallet.js';
import { choose, current, useWallets } from './discovery.js';
import NoWallet from './NoWallet.jsx';
import { phoneWithoutWallet } from './walletApps.js';
import Copyable from '../common/Copyable.jsx';

/**
 * The wallet the member tried to link is another account's: what to do next, beside the button
 * (a toast over the header said only that it was refused): use another wallet, or, if this one is
 * theirs, write to support with its address.
 */
function WalletTaken({ wallet }) {
  const { t } = useTranslation();
  const { supportEmail } = settings;
  const subject = encodeURIComponent(t('wallet-taken-mail-subject'));
  const mail = supportEmail ? `mailto:${supportEmail}?subject=${subject}&body=${encodeURIComponent(wallet)}` : null;
  return (
    <div className="notice error wallet-taken" role="alert" data-testid="wallet-taken">
      <p>
        {t('wallet-taken')}{' '}
        <span data-testid="wallet-taken-address">
          <Copyable value={wallet} toastKey="copied-wallet" />
        </span>
      </p>
      <p>{t('wallet-taken-other')}</p>
      <p>
        {t(mail ? 'wallet-taken-support' : 'wallet-taken-support-registered')}{' '}
        {mail && (
          <a href={mail} translate="no" data-testid="wallet-taken-mail">
            {supportEmail}
          </a>
        )}
      </p>
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

/** Sent here by the wallet check from a page that needs a linked wallet: which page, and why. */
function WalletNeeded({ page }) {
  const { t } = useTranslation();
  return (
    <p className="notice info" role="status" data-testid="wallet-needed">
      {t('wallet-needed', { page: t(page, { product: settings.product }) })}
    </p>
  );
}

export default function WalletCard() {
  const { t } = useTranslation();
  // Wallets announce themselves after the page starts: the box shows again when one does.
  useWallets();
  const [account, setAccount] = useConnectedAccount();
  const linked = useLinkedWallet();
  const [busy, setBusy] = useState(null);
  // The wallet another account holds, as refused (said while that wallet is the connected one).
  const [taken, setTaken] = useState(null);

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
    setTaken(null);
    setTaken((await linkWallet(account))?.taken ?? null);
  });
  const mismatch = linked && account && !sameAddress(linked, account);
  const walletFor = useLocation().state?.walletFor;

  return (
    <section className="summary-box wallet-card" aria-labelledby="wallet-card-title" data-testid="wallet-card">
      <h2 id="wallet-card-title">{t('wallet-card-title')}</h2>
      {walletFor && !linked && <WalletNeeded page={walletFor} />}
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
      {!linked && account && taken && sameAddress(taken, account) ? (
        <WalletTaken wallet={account} />
      ) : (
        !linked && account && <p className="muted">{t('wallet-link-help')}</p>
      )}
      <div className="wallet-actions">
        {/* A phone's browser without a wallet cannot connect one: the wallet apps above are the way. */}
        {!account && !phoneWithoutWallet(Boolean(current())) && (
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
