// /staking: stake LVLX in a lock tier. The tiers with their lock and rate; an amount
// (with Max: the wallet's balance) and, before anything is sent, what it brings (reward, its
// USDT value, the release date) or why it cannot be staked; approve + stake (simulated first);
// the member's positions with rewards ticking live, interest withdrawals and the release.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import AmountField from '../common/AmountField.jsx';
import {
  calldata,
  formatLvlx,
  formatUnits,
  parseAmount,
  editableNumber,
  localizeNumber,
  stakingQuote,
  validateAmount,
  LVLX_DECIMALS,
  lockTerms,
} from '../core/index.js';
import { formatDate } from '../common/dates.js';
import useChainAction, { BUSY } from '../wallet/useChainAction.js';
import { spending } from '../wallet/allowance.js';
import TxStatus from '../wallet/TxStatus.jsx';
import StakingFrame, { usePositionActions } from './StakingFrame.jsx';
import Positions from './Positions.jsx';
import { formatDay, formatRate } from '../common/format.js';

/** The lock tiers to choose from, each with its lock, its rate and when a stake made now comes back. */
function Tiers({ tiers, tier, onTier, now, disabled }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <fieldset className="tiers">
      <legend>{t('staking-tiers')}</legend>
      {tiers.length === 0 && <p className="muted">{t('staking-no-tiers')}</p>}
      {tiers.map((x) => (
        <label key={x.kind} className={`tier${x.kind === tier ? ' selected' : ''}`} data-testid={`tier-${x.kind}`}>
          <input
            type="radio"
            name={`${id}tier`}
            value={x.kind}
            checked={x.kind === tier}
            disabled={disabled}
            onChange={() => onTier(x.kind)}
          />
          <span className="tier-lock">{t('staking-days', { count: lockTerms(x.rateBps, x.lockSeconds).days })}</span>
          <span className="tier-rate" translate="no">
            {formatRate(x.rateBps, i18n.language)}
          </span>
          {/* Over the lock or a year? Both, and when the stake comes back if made now. */}
          <span className="tier-note">
            {t('staking-rate-over-lock')} ·{' '}
            {t('staking-rate-yearly', {
              rate: formatRate(lockTerms(x.rateBps, x.lockSeconds).yearlyBps, i18n.language),
            })}
          </span>
          <span className="tier-note">
            {t('staking-comes-back', { date: formatDay((now + x.lockSeconds) * 1000, i18n.language) })}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** What the stake brings, before anything is sent. */
function StakeSummary({ units, quote }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  return (
    <dl className="wallet-facts stake-summary" data-testid="stake-summary">
      <dt>{t('staking-you-stake')}</dt>
      <dd translate="no">
        {formatLvlx(units)} {product}
      </dd>
      <dt>{t('staking-you-earn')}</dt>
      <dd translate="no" data-testid="stake-reward">
        {formatLvlx(quote.reward)} {product} <span className="muted">≈ {localizeNumber(quote.rewardUsdt)} USDT</span>
      </dd>
      <dt>{t('staking-release-on')}</dt>
      <dd translate="no">{formatDate(quote.release * 1000, i18n.language)}</dd>
    </dl>
  );
}

/**
 * The stake as typed: the amount's problem first (a field error), then the stake's (the reserve,
 * the tier) in the core's quote; `reason`: why the button waits.
 */
function stakeQuote(text, max, terms, free, now, account) {
  const fieldError = text.trim() ? validateAmount(text, LVLX_DECIMALS, null, max) : null;
  const units = text.trim() && !fieldError ? parseAmount(text, LVLX_DECIMALS) : null;
  const quote = units && terms ? stakingQuote('lvlx', terms, units, free, now) : null;
  // Without a wallet the box above says so with its button: here only where to look.
  const reason = !account
    ? 'staking-connect-first'
    : !text.trim()
      ? 'staking-enter-amount'
      : fieldError
        ? null
        : (quote?.error ?? null);
  return { fieldError, units, quote, reason };
}

/** Approves (when needed) and stakes `units` in `tier`, simulated first; true once done. */
async function sendStake(account, tier, units, quote, run, reload) {
  const { chain, product } = settings;
  const txs = await spending(
    account,
    { token: chain.lvlx, spender: chain.lvlxStaking, amount: units },
    {
      to: chain.lvlxStaking,
      // The quote's reward and release bound the stake: terms changed meanwhile refuse it.
      data: calldata('LvlxStaking', 'stake', [tier, units, quote.reward, String(quote.maxRelease)]),
      simulate: true,
    },
  );
  const values = { amount: formatLvlx(units), product };
  return run(account, txs, { action: 'stake-lvlx', values }, reload);
}

function LvlxPage({ data, now, account, reload }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  const id = useId();
  const [tier, setTier] = useState(data.tiers[0]?.kind ?? null);
  // What was typed, in the language it was typed in: after a switch it would read differently
  // ("1,125" is 1.125 in Spanish, 1125 in English), so the field starts empty again.
  const [typed, setTyped] = useState({ text: '', language: i18n.language });
  const text = typed.language === i18n.language ? typed.text : '';
  const setText = (value) => setTyped({ text: value, language: i18n.language });
  const [step, run] = useChainAction();
  const [positionStep, interest, release] = usePositionActions('lvlx', account, reload);
  const busy = BUSY.includes(step.state) || BUSY.includes(positionStep.state);
  const terms = data.tiers.find((x) => x.kind === tier);
  const balance = data.lvlxBalance ?? '0';
  const max = formatUnits(balance, LVLX_DECIMALS);

  const { fieldError, units, quote, reason } = stakeQuote(text, max, terms, data.reserve.lvlx.free, now, account);
  const fieldMessage =
    fieldError === 'validations-max-msg'
      ? t('chain-insufficient-balance')
      : fieldError
        ? t(fieldError, { minValue: '0', maxValue: localizeNumber(max) })
        : '';

  const stake = async (event) => {
    event.preventDefault();
    if (!quote || quote.error) return;
    if (await sendStake(account, tier, units, quote, run, reload)) setText('');
  };

  return (
    <>
      <form className="stake-form" onSubmit={stake} noValidate>
        <Tiers tiers={data.tiers} tier={tier} onTier={setTier} now={now} disabled={busy} />
        <AmountField
          id={`${id}a`}
          label={t('staking-amount', { product })}
          unit={product}
          value={text}
          onChange={setText}
          disabled={busy}
          error={fieldMessage}
          describedBy={`${id}b`}
          onMax={() => setText(editableNumber(max))}
          maxDisabled={balance === '0'}
          maxLabel={t('staking-max')}
        >
          <p id={`${id}b`} className="muted small" translate="no">
            {t('staking-balance', { amount: `${formatLvlx(balance)} ${product}` })}
          </p>
        </AmountField>
        {quote && !quote.error && <StakeSummary units={units} quote={quote} />}
        <button
          type="submit"
          className="button"
          disabled={busy || !quote || Boolean(quote.error)}
          aria-describedby={`${id}r`}
          aria-busy={busy}
        >
          {t('staking-stake')}
        </button>
        <p id={`${id}r`} className="muted small" data-testid="stake-reason" role="status">
          {reason ? t(reason) : ''}
        </p>
      </form>
      <TxStatus step={step} />
      <h2>{t('staking-positions')}</h2>
      <Positions
        pool="lvlx"
        rows={data.positions.lvlx}
        now={now}
        busy={busy}
        onInterest={interest}
        onRelease={release}
        label={t('staking-positions')}
        empty={t('staking-positions-empty')}
      />
      <TxStatus step={positionStep} testId="position-status" />
    </>
  );
}

export default function Staking() {
  return <StakingFrame titleKey="menu-staking">{(props) => <LvlxPage {...props} />}</StakingFrame>;
}
