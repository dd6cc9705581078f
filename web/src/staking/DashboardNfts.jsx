// /dashboardNFTs: the 11 NFTs with their price, lock and reward; buying (USDT approval,
// then the NFT sale, simulated first) and staking (the staking contract's approval, then the
// stake, refused up front when the reward reserve cannot cover it); the member's staked NFTs in
// the data table (docs/product/staking.md#pages) with its date filter, rewards ticking live, and
// withdrawals.
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { DateRangeFields } from '../common/Filters.jsx';
import useDateRange from '../common/useDateRange.js';
import {
  localizeNumber,
  calendarDate,
  calldata,
  dayInRange,
  formatLvlx,
  formatUsdt,
  lvlxToUsdt,
  nftCost,
  stakingQuote,
  validateAmount,
  parseAmount,
  viewerOffsetMinutes,
  lockTerms,
} from '../core/index.js';
import useChainAction, { BUSY } from '../wallet/useChainAction.js';
import { operating, spending } from '../wallet/allowance.js';
import TxStatus from '../wallet/TxStatus.jsx';
import StakingFrame, { usePositionActions } from './StakingFrame.jsx';
import Positions from './Positions.jsx';
import { formatRate } from '../common/format.js';
import usePhone from '../common/usePhone.js';

const MAX_BUY = '1000';

/**
 * The quantity as typed, what it costs and what staking it brings; `stakeReason`: why it cannot be
 * staked (null: it can, or the quantity is invalid).
 */
function nftQuote(typed, nft, held, free, now) {
  const invalid = validateAmount(typed, 0, '1', MAX_BUY);
  // The whole number the member typed ("1.000" in pt is 1000), read once by the core; the
  // typed text never reaches the chain's arithmetic (a half-typed "1," crashed the page).
  const quantity = invalid ? null : parseAmount(typed, 0);
  const cost = invalid ? null : nftCost(nft.price, quantity);
  const quote = invalid ? null : stakingQuote('nft', nft, quantity, free, now);
  const canStake = !invalid && BigInt(held) >= BigInt(quantity);
  const stakeReason = invalid ? null : !canStake ? 'staking-not-enough-nfts' : (quote?.error ?? null);
  return { invalid, quantity, cost, quote, stakeReason };
}

/** An NFT's terms and how many the wallet holds. */
function NftFacts({ nft, held }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  return (
    <dl className="wallet-facts">
      <dt>{t('nft-price')}</dt>
      <dd translate="no">{formatUsdt(nft.price)} USDT</dd>
      <dt>{t('staking-lock')}</dt>
      <dd>{t('staking-days', { count: lockTerms(nft.rateBps, nft.lockSeconds).days })}</dd>
      <dt>{t('staking-rate')}</dt>
      <dd translate="no">{formatRate(nft.rateBps, i18n.language)}</dd>
      <dt>{t('nft-reward-each', { product })}</dt>
      <dd translate="no">
        {formatLvlx(nft.rewardPerNft)} {product}{' '}
        <span className="muted">≈ {localizeNumber(lvlxToUsdt(nft.rewardPerNft))} USDT</span>
      </dd>
      <dt>{t('nft-held')}</dt>
      <dd translate="no" data-testid="nft-held">
        {held}
      </dd>
    </dl>
  );
}

/** The quantity, typed or stepped by one, with its problem. */
function QuantityStepper({ id, typed, quantity, invalid, busy, onChange }) {
  const { t } = useTranslation();
  return (
    <>
      <label htmlFor={`${id}q`}>{t('nft-quantity')}</label>
      <div className="stepper">
        <button
          type="button"
          className="button secondary small"
          disabled={busy || !(Number(quantity) > 1)}
          onClick={() => onChange(String(Math.max(1, Number(quantity) - 1)))}
          aria-label={t('nft-quantity-less')}
        >
          −
        </button>
        <input
          id={`${id}q`}
          inputMode="numeric"
          autoComplete="off"
          value={typed}
          disabled={busy}
          aria-invalid={Boolean(invalid)}
          aria-describedby={`${id}e`}
          onChange={(e) => onChange(e.target.value.trim())}
        />
        <button
          type="button"
          className="button secondary small"
          disabled={busy || (quantity !== null && !(Number(quantity) < Number(MAX_BUY)))}
          onClick={() => onChange(String((quantity === null ? 0 : Number(quantity)) + 1))}
          aria-label={t('nft-quantity-more')}
        >
          +
        </button>
      </div>
      <p id={`${id}e`} className="field-error" role="alert">
        {invalid ? t(invalid, { minValue: '1', maxValue: MAX_BUY }) : ''}
      </p>
    </>
  );
}

function NftCard({ nft, held, account, busy, onBuy, onStake, free, now, step }) {
  const { t, i18n } = useTranslation();
  const phone = usePhone();
  const id = useId();
  const [typed, setQuantity] = useState('1');
  const { invalid, quantity, cost, quote, stakeReason } = nftQuote(typed, nft, held, free, now);
  const facts = (
    <>
      <NftFacts nft={nft} held={held} />
      <QuantityStepper id={id} typed={typed} quantity={quantity} invalid={invalid} busy={busy} onChange={setQuantity} />
      {cost && (
        <p className="muted" translate="no">
          {t('nft-you-pay', { amount: `${formatUsdt(cost)} USDT` })}
        </p>
      )}
      <div className="row-actions">
        <button
          type="button"
          className="button"
          disabled={!account || busy || !cost}
          onClick={() => onBuy(nft, quantity, cost)}
        >
          {t('nft-buy')}
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={!account || busy || Boolean(stakeReason) || Boolean(invalid)}
          aria-describedby={`${id}r`}
          onClick={() => onStake(nft, quantity, quote)}
        >
          {t('nft-stake')}
        </button>
      </div>
      <p id={`${id}r`} className="muted small" data-testid="nft-stake-reason">
        {stakeReason ? t(stakeReason) : ''}
      </p>
      {step.label?.id === nft.kind && <TxStatus step={step} />}
    </>
  );
  // On a phone the eleven offers are a list of one line each (what it costs, earns and locks,
  // how many the wallet holds); the member opens the one they want (a <details>: keyboard and
  // screen readers know it). A running transaction keeps its card open.
  if (phone) {
    return (
      <details
        className="nft-card nft-offer"
        data-testid={`nft-${nft.kind}`}
        open={step.label?.id === nft.kind || undefined}
      >
        <summary id={`${id}t`}>
          <strong>{t('nft-id', { id: nft.kind })}</strong>
          <span translate="no">{formatUsdt(nft.price)} USDT</span>
          <span className="muted" translate="no">
            {formatRate(nft.rateBps, i18n.language)} ·{' '}
            {t('staking-days', { count: lockTerms(nft.rateBps, nft.lockSeconds).days })}
          </span>
          {BigInt(held) > 0n && (
            <span className="nft-held-badge" translate="no">
              {t('nft-held-count', { count: Number(held) })}
            </span>
          )}
        </summary>
        {facts}
      </details>
    );
  }
  return (
    <article className="nft-card" data-testid={`nft-${nft.kind}`} aria-labelledby={`${id}t`}>
      <h3 id={`${id}t`}>{t('nft-id', { id: nft.kind })}</h3>
      {facts}
    </article>
  );
}

/** The staked-NFT date filter: release date between start and end (inclusive, viewer's days). */
function ReleaseFilter({ rows, range }) {
  // The earliest start: the day after the latest release among the member's returned NFTs.
  const returned = rows.filter((r) => r.closedAt).map((r) => r.withdrawDate);
  const startMin = returned.length
    ? calendarDate(Math.max(...returned) + 86_400_000, viewerOffsetMinutes())
    : undefined;
  const { typed } = range;
  return (
    <DateRangeFields
      value={typed}
      // Either end may stay open: only an end is "released until then".
      onChange={(which, day) => range.set({ ...typed, [which]: day })}
      onReset={() => range.set({ start: '', end: '' })}
      atReset={!typed.start && !typed.end}
      error={range.error}
      kept={range.applied}
      startMin={startMin}
      labelKey="filter-release"
    />
  );
}

/** Buying NFTs with USDT and staking them, each approved first when needed. */
function useNftActions(account, reload) {
  const { chain } = settings;
  const [step, run] = useChainAction();
  const buy = async (nft, quantity, cost) => {
    const txs = await spending(
      account,
      { token: chain.usdt, spender: chain.nftSale, amount: cost },
      { to: chain.nftSale, data: calldata('NftSale', 'buy', [nft.kind, quantity, cost]), simulate: true },
    );
    const values = { usdt: formatUsdt(cost), count: quantity, id: nft.kind };
    run(account, txs, { action: 'buy-nft', values, id: nft.kind }, reload);
  };
  const stake = async (nft, quantity, quote) => {
    // The quote's reward and release bound the stake: terms changed meanwhile refuse it.
    const bounds = [quote.reward, String(quote.maxRelease)];
    const txs = await operating(
      account,
      { collection: chain.levelNft, operator: chain.nftStaking },
      { to: chain.nftStaking, data: calldata('NftStaking', 'stake', [nft.kind, quantity, ...bounds]), simulate: true },
    );
    run(account, txs, { action: 'stake-nft', values: { count: quantity, id: nft.kind }, id: nft.kind }, reload);
  };
  return { step, buy, stake };
}

/**
 * The staked NFTs released within the `applied` date range (a refused range, an end before its
 * start, leaves the last good one applied).
 */
function useReleasedIn(rows, applied) {
  return useMemo(() => {
    if (!applied.start && !applied.end) return rows;
    const offset = viewerOffsetMinutes();
    return rows.filter((r) =>
      dayInRange(calendarDate(r.withdrawDate, offset), applied.start || null, applied.end || null),
    );
  }, [rows, applied]);
}

function NftPage({ data, now, account, reload }) {
  const { t } = useTranslation();
  const { product } = settings;
  const { step, buy, stake } = useNftActions(account, reload);
  const [positionStep, interest, release] = usePositionActions('nft', account, reload);
  const range = useDateRange();
  const busy = BUSY.includes(step.state) || BUSY.includes(positionStep.state);
  const rows = data.positions.nft;
  const shown = useReleasedIn(rows, range.applied);
  const catalogue = (
    <section aria-labelledby="nft-catalogue-title" data-testid="nft-catalogue">
      <h2 id="nft-catalogue-title">{t('nft-catalogue')}</h2>
      <p className="muted">{t('nft-catalogue-help', { product })}</p>
      <div className="nft-grid">
        {data.nfts.map((nft) => (
          <NftCard
            key={nft.kind}
            nft={nft}
            held={data.held[nft.kind - 1] ?? '0'}
            account={account}
            busy={busy}
            onBuy={buy}
            onStake={stake}
            free={data.reserve.nft.free}
            now={now}
            step={step}
          />
        ))}
      </div>
    </section>
  );
  const staked = (
    <section aria-labelledby="nft-staked-heading" data-testid="nft-staked-section">
      <h2 id="nft-staked-heading">{t('nft-staked-title')}</h2>
      <ReleaseFilter rows={rows} range={range} />
      <Positions
        pool="nft"
        rows={shown}
        now={now}
        busy={busy}
        onInterest={interest}
        onRelease={release}
        label={t('nft-staked-title')}
        empty={rows.length ? null : t('nft-staked-empty')}
        filtered={rows.length > 0}
      />
      <TxStatus step={positionStep} testId="position-status" />
    </section>
  );
  // A member with staked NFTs comes for them first (on a phone the eleven offers below took
  // ~5,600 px before them); a member without any comes for the offers.
  return rows.length > 0 ? (
    <>
      {staked}
      {catalogue}
    </>
  ) : (
    <>
      {catalogue}
      {staked}
    </>
  );
}

export default function DashboardNfts() {
  return <StakingFrame titleKey="menu-dashboardNFTs">{(props) => <NftPage {...props} />}</StakingFrame>;
}
