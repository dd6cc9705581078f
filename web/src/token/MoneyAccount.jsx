// A member's money as one account, the same wherever it is shown (the dashboard, My assets):
// what the wallet holds, what is staked and until when, rewards earned and not yet withdrawn,
// commissions and bonuses to claim (what a claim pays now, and what waits for a verified
// identity), the total of those, then what was paid out and what was
// bought on the platform. The core composes it (lvlx_core::account) from the server's figures
// and the wallet's balance the server read on chain; each line says what it is.
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { formatLvlx, formatReward, localizeNumber, moneyAccount } from '../core/index.js';
import { formatDate } from '../common/dates.js';
import ClaimableSplit from '../kyc/ClaimableSplit.jsx';
import { useLinkedWallet } from '../wallet/wallet.js';

/** What the wallet holds; or that no wallet is linked yet (with the way to link one), or unread. */
function WalletLine({ wallet, notLinked, lvlx }) {
  const { t } = useTranslation();
  if (notLinked)
    return (
      <span className="muted" translate="yes">
        {t('account-wallet-not-linked')} <a href="#wallet-card-title">{t('account-wallet-link')}</a>
      </span>
    );
  return wallet === null ? <span className="muted">{t('account-wallet-unread')}</span> : lvlx(wallet);
}

export default function MoneyAccount({ dashboard }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  const a = moneyAccount(dashboard.account, dashboard.walletLvlx);
  const lvlx = (units) => `${formatLvlx(units)} ${product}`;
  // No wallet linked yet is not a wallet that could not be read: said as it is, with the way on
  // (the wallet box, where linking happens).
  const linked = useLinkedWallet();
  const notLinked = a.wallet === null && !linked;
  return (
    <div data-testid="money-account">
      <p className="dash-figure" translate="no" data-testid="account-total">
        {lvlx(a.total)}
      </p>
      <p className="muted">
        ≈ <span translate="no">{localizeNumber(a.totalUsdt)} USDT</span> ·{' '}
        {t(
          a.walletCounted
            ? 'account-total-help'
            : notLinked
              ? 'account-total-not-linked'
              : 'account-total-without-wallet',
        )}
      </p>
      {a.withNftsUsdt !== null && (
        <p className="muted" data-testid="account-with-nfts">
          {t('account-with-nfts', {
            worth: `${localizeNumber(a.nftUsdt)} USDT`,
            total: `${localizeNumber(a.withNftsUsdt)} USDT`,
          })}
        </p>
      )}
      <dl className="wallet-facts account-facts">
        <dt>{t('account-wallet')}</dt>
        <dd translate="no" data-testid="account-wallet">
          <WalletLine wallet={a.wallet} notLinked={notLinked} lvlx={lvlx} />
        </dd>
        <dt>{t('account-staked')}</dt>
        <dd data-testid="account-staked">
          <span translate="no">{lvlx(a.staked)}</span>
          {a.lockedUntil !== null && (
            <span className="muted small">
              {t('account-locked-until', { date: formatDate(a.lockedUntil * 1000, i18n.language) })}
            </span>
          )}
          {a.nfts > 0 && (
            <span className="muted small" data-testid="account-nfts">
              {a.nftUsdt === null
                ? t('account-nfts', { count: a.nfts })
                : t('account-nfts-worth', { count: a.nfts, value: `${localizeNumber(a.nftUsdt)} USDT` })}
            </span>
          )}
        </dd>
        <dt>{t('account-accrued')}</dt>
        <dd translate="no" data-testid="account-accrued">
          {formatReward(a.accrued)} {product}
        </dd>
        <ClaimableSplit
          split={a.claimSplit}
          label="account-claimable"
          claimTo="/rank-bonus"
          testId="account-claimable"
        />
      </dl>
      <dl className="wallet-facts account-facts account-history">
        <dt>{t('account-paid')}</dt>
        <dd translate="no" data-testid="account-paid">
          {lvlx(a.paid)}
        </dd>
        <dt>{t('account-bought')}</dt>
        <dd translate="no" data-testid="account-bought">
          {lvlx(a.bought)}
        </dd>
      </dl>
    </div>
  );
}
