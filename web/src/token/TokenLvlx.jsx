// /token{product}: buy the token with USDT through the ICO sale. The amount is typed in USDT or
// in the token, the other side computed by the core at the sale's on-chain price; balances and
// allowance are read from the chain; approve (when needed) then buy, each pending until mined,
// with its hash and an explorer link. What the ledger credits comes from the indexed event,
// which the live channel reports back here. Without a connected wallet the price (the sale's, as
// the platform recorded it), the quote and the terms still show; a phone without a wallet gets
// the wallet apps that open this page where its wallet is.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import Onramp from './Onramp.jsx';
import AmountField from '../common/AmountField.jsx';
import {
  localizeNumber,
  calldata,
  formatLvlx,
  formatUnits,
  editableNumber,
  formatUsdt,
  purchasePlan,
  sameAddress,
  USDT_DECIMALS,
  LVLX_DECIMALS,
} from '../core/index.js';
import useLoad from '../common/useLoad.js';
import { api } from '../common/client.js';
import { spending } from '../wallet/allowance.js';
import useChainAction, { BUSY } from '../wallet/useChainAction.js';
import { connectWallet, readUint, useConnectedAccount } from '../wallet/wallet.js';
import { current } from '../wallet/discovery.js';
import NoWallet from '../wallet/NoWallet.jsx';
import { phoneWithoutWallet } from '../wallet/walletApps.js';
import { useLive } from '../common/live.js';
import TxStatus from '../wallet/TxStatus.jsx';

const ZERO = '0x0000000000000000000000000000000000000000';

async function readChain(chain, account) {
  const [price, usdt, allowance, lvlx] = await Promise.all([
    readUint(chain.icoSale, 'IcoSale', 'price', []),
    readUint(chain.usdt, 'LVLX', 'balanceOf', [account]),
    readUint(chain.usdt, 'LVLX', 'allowance', [account, chain.icoSale]),
    readUint(chain.lvlx, 'LVLX', 'balanceOf', [account]),
  ]);
  return { price, usdt, allowance, lvlx };
}

/**
 * The sale's price and the account's balances and allowance, read again by `refresh`. A read
 * that fails is said (`readError`) and tried again by itself, sooner first (2 s, then up to 15 s
 * apart): a wallet's node that missed one call leaves nobody stuck on the message.
 */
function useSaleReads(chain, account) {
  const [reads, setReads] = useState(null);
  const [failures, setFailures] = useState(0);
  const refresh = useCallback(async () => {
    if (!account || !chain) return;
    try {
      setReads(await readChain(chain, account));
      setFailures(0);
    } catch (e) {
      console.warn('chain read failed', e);
      setFailures((n) => n + 1);
    }
  }, [account, chain]);
  useEffect(() => {
    setReads(null);
    refresh();
  }, [refresh]);
  useEffect(() => {
    if (!failures) return undefined;
    const timer = setTimeout(refresh, Math.min(2000 * failures, 15_000));
    return () => clearTimeout(timer);
  }, [failures, refresh]);
  return { reads, readError: failures > 0, refresh };
}

/**
 * The purchase as typed: the core's plan at `price` (null until something is typed), what each
 * field shows, the problem said beside each field, and why the button waits (`reason`).
 */
function quote(input, price, reads, account) {
  // Without a wallet there is no balance or allowance to weigh: only the quote counts.
  const computed =
    price && input.text.trim()
      ? purchasePlan(input.side, input.text, price, reads?.usdt ?? '0', reads?.allowance ?? '0')
      : null;
  const shown = (side) => {
    if (input.side === side || !computed || computed.error) return input.side === side ? input.text : '';
    return editableNumber(
      side === 'usdt' ? formatUnits(computed.usdt, USDT_DECIMALS) : formatUnits(computed.lvlx, LVLX_DECIMALS),
    );
  };
  // A problem is said beside the field it comes from (the one typed in), a short balance beside
  // what is paid; the button says nothing is wrong only when the purchase can be sent.
  const planError = computed?.error ?? (account && computed?.shortOfBalance ? 'chain-insufficient-balance' : null);
  const usdtError =
    planError && (input.side === 'usdt' || planError === 'chain-insufficient-balance') ? planError : null;
  const lvlxError = planError && !usdtError ? planError : null;
  const ready = Boolean(computed) && !planError;
  const reason = !price ? null : !input.text.trim() ? 'buy-enter-amount' : planError ? 'buy-fix-amount' : null;
  return { computed, shown, usdtError, lvlxError, ready, reason };
}

/** The sale's price and, with a wallet connected, its USDT and token balances. */
function BuyReads({ price, priceLine, reads, readError }) {
  const { t } = useTranslation();
  const { product } = settings;
  return (
    <div className="summary-box" data-testid="buy-reads" aria-busy={!price && !readError}>
      {readError && (
        <p className="notice error" role="alert">
          {t('chain-read-failed')}
        </p>
      )}
      {price ? (
        <dl className="wallet-facts">
          <dt>{t('buy-price')}</dt>
          <dd translate="no" data-testid="buy-price">
            {priceLine}
          </dd>
          {reads && (
            <>
              <dt>{t('buy-usdt-balance')}</dt>
              <dd translate="no" data-testid="buy-usdt-balance">
                {formatUsdt(reads.usdt)} USDT
              </dd>
              <dt>{t('buy-lvlx-balance', { product })}</dt>
              <dd translate="no" data-testid="buy-lvlx-balance">
                {formatLvlx(reads.lvlx)} {product}
              </dd>
            </>
          )}
        </dl>
      ) : (
        !readError && <p className="muted">{t('loading')}</p>
      )}
    </div>
  );
}

/**
 * How to go on without a connected wallet: connect (a wallet in this browser), or on a phone
 * without one, the wallet apps; on a desktop without one, what a wallet is and the guide.
 */
function ConnectBox({ onConnected }) {
  const { t } = useTranslation();
  const phone = phoneWithoutWallet(Boolean(current()));
  return (
    <div className="summary-box buy-connect" data-testid="buy-connect">
      {current() ? <p>{t('buy-connect-help')}</p> : <NoWallet />}
      {!phone && (
        <button type="button" className="button" onClick={async () => onConnected(await connectWallet())}>
          {t('wallet-connect')}
        </button>
      )}
    </div>
  );
}

/** What the purchase is, once it can be sent. */
function BuySummary({ computed, priceLine }) {
  const { t } = useTranslation();
  const { product } = settings;
  return (
    <dl className="wallet-facts stake-summary" data-testid="buy-summary">
      <dt>{t('buy-you-pay')}</dt>
      <dd translate="no">{formatUsdt(computed.usdt)} USDT</dd>
      <dt>{t('buy-you-get')}</dt>
      <dd translate="no">
        {formatLvlx(computed.lvlx)} {product}
      </dd>
      <dt>{t('buy-price')}</dt>
      <dd translate="no">{priceLine}</dd>
    </dl>
  );
}

function BuyTerms() {
  const { t } = useTranslation();
  const { product } = settings;
  return (
    <div className="summary-box" data-testid="buy-terms">
      <h2>{t('buy-terms-title')}</h2>
      <ul className="plain-list">
        <li>{t('buy-terms-pay', { product })}</li>
        <li>{t('buy-terms-approve')}</li>
        <li>{t('buy-terms-price')}</li>
      </ul>
    </div>
  );
}

/**
 * What was typed, in the language it was typed in: after a switch it would read differently
 * ("1,125" is 1.125 in Spanish, 1125 in English), so the field starts empty again.
 */
function useTypedAmount() {
  const { i18n } = useTranslation();
  const [typed, setTyped] = useState({ side: 'usdt', text: '', language: i18n.language });
  const input = typed.language === i18n.language ? typed : { side: typed.side, text: '' };
  const setInput = (next) => setTyped({ ...next, language: i18n.language });
  return [input, setInput];
}

/**
 * Approves (when needed) and buys `computed`'s amounts for `referrer`, each transaction pending
 * until mined (`run`); `sent()` once the purchase went through; the reads again in any case.
 */
async function sendPurchase({ account, chain, referrer, computed, run, setStep, refresh, sent }) {
  if (!computed || computed.error) return;
  const { usdt, lvlx } = computed;
  if (computed.shortOfBalance) {
    setStep({ state: 'failed', key: 'chain-insufficient-balance' });
    return;
  }
  try {
    const txs = await spending(
      account,
      { token: chain.usdt, spender: chain.icoSale, amount: usdt },
      { to: chain.icoSale, data: calldata('IcoSale', 'buy', [usdt, lvlx, referrer]), simulate: true },
    );
    const values = { usdt: formatUsdt(usdt), lvlx: formatLvlx(lvlx), product: settings.product };
    if (await run(account, txs, { action: 'buy-lvlx', values })) sent();
  } catch (e) {
    console.warn('chain read failed', e);
    setStep({ state: 'failed', key: 'chain-read-failed' });
  } finally {
    refresh();
  }
}

/** Without the chain's settings: only the card on-ramp. */
function NoChain() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1>{t('menu-token', { product: settings.product })}</h1>
      <p className="notice error" role="alert">
        {t('chain-unavailable')}
      </p>
      <Onramp />
    </section>
  );
}

export default function TokenLvlx() {
  const { t } = useTranslation();
  const { product, chain } = settings;
  const [account, setAccount] = useConnectedAccount();
  // The sponsor's linked wallet is the purchase's on-chain referrer (the sale refuses the buyer
  // as their own referrer; without one, the zero address).
  const sponsor = useLoad((signal) => api('network/sponsor', { signal }), []).data?.wallet ?? null;
  const referrer = sponsor && !sameAddress(sponsor, account) ? sponsor : ZERO;
  const [input, setInput] = useTypedAmount();
  const [step, run, setStep] = useChainAction();
  // The hash of the last purchase the live channel reported indexed.
  const [recorded, setRecorded] = useState(null);

  const { reads, readError, refresh } = useSaleReads(chain, account);
  useLive('purchase', (message) => setRecorded(message.txHash));
  // Without a connected wallet nothing reads the chain here: the price is the sale's last one
  // the platform recorded (its PriceChanged events), enough to quote before connecting.
  const history = useLoad(account ? null : (signal) => api('wallet/history', { signal }), [Boolean(account)]);
  const recordedPrice = history.data?.prices?.at(-1)?.price ?? null;
  const price = account ? (reads?.price ?? null) : recordedPrice;

  if (!chain) return <NoChain />;

  const { computed, shown, usdtError, lvlxError, ready, reason } = quote(input, price, reads, account);
  const busy = BUSY.includes(step.state);
  const priceLine = price && `1 ${product} = ${localizeNumber(formatUnits(price, USDT_DECIMALS))} USDT`;

  const buy = (event) => {
    event.preventDefault();
    const sent = () => setInput({ side: input.side, text: '' });
    return sendPurchase({ account, chain, referrer, computed, run, setStep, refresh, sent });
  };

  return (
    <section className="page token-page">
      <h1>{t('menu-token', { product })}</h1>
      <BuyReads price={price} priceLine={priceLine} reads={reads} readError={readError} />
      <form className="buy-form" onSubmit={buy} noValidate>
        <AmountField
          id="buy-usdt"
          label={t('buy-pay')}
          unit="USDT"
          value={shown('usdt')}
          disabled={!price || busy}
          error={usdtError ? t(usdtError, { minValue: '0', maxValue: '' }) : ''}
          describedBy="buy-reason"
          onChange={(text) => setInput({ side: 'usdt', text })}
          onMax={
            reads
              ? () => setInput({ side: 'usdt', text: editableNumber(formatUnits(reads.usdt, USDT_DECIMALS)) })
              : undefined
          }
          maxDisabled={!reads || reads.usdt === '0'}
          maxLabel={t('staking-max')}
        />
        <AmountField
          id="buy-lvlx"
          label={t('buy-receive', { product })}
          unit={product}
          value={shown('lvlx')}
          disabled={!price || busy}
          error={lvlxError ? t(lvlxError, { minValue: '0', maxValue: '' }) : ''}
          describedBy="buy-reason"
          onChange={(text) => setInput({ side: 'lvlx', text })}
        />
        {ready && <BuySummary computed={computed} priceLine={priceLine} />}
        {account && (
          <button
            type="submit"
            className="button"
            disabled={!ready || busy}
            aria-busy={busy}
            aria-describedby="buy-reason"
          >
            {ready && computed.needsApproval ? t('buy-approve-and-buy') : t('buy-submit')}
          </button>
        )}
        <p id="buy-reason" className="muted small" role="status" data-testid="buy-reason">
          {reason ? t(reason) : ''}
        </p>
      </form>
      {!account && <ConnectBox onConnected={setAccount} />}
      {account && (
        <TxStatus step={step} after={recorded === step.hash?.toLowerCase() ? t('tx-recorded') : t('tx-recording')} />
      )}
      <BuyTerms />
      <Onramp />
    </section>
  );
}
