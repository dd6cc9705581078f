// /activation-node: what the node unlocks, its price (from the contract), the member's status
// and date, and the purchase (approve USDT, then buy; both checked against the chain first).
// The indexer records the NodeActivated event; the page updates when it does.
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { calldata, formatUsdt, sameAddress } from '../core/index.js';
import { storedWallet } from '../wallet/wallet.js';
import useChainAction, { BUSY } from '../wallet/useChainAction.js';
import { spending } from '../wallet/allowance.js';
import TxStatus from '../wallet/TxStatus.jsx';
import ConnectOr from '../wallet/ConnectOr.jsx';
import { formatDate } from '../common/dates.js';
import NetworkFrame from './NetworkFrame.jsx';

/**
 * What members who hold a node have earned here so far (the server's figures, USDT): the
 * sentences the core chose for them (lvlx_core::node_outcomes), each true of the figures.
 */
function Outcomes({ outcomes, price, fewest }) {
  const { t, i18n } = useTranslation();
  const usdt = (units) => `${formatUsdt(units)} USDT`;
  const percent = (part, whole) =>
    new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(part / whole);
  const say = (s) =>
    t(s.key, {
      count: s.count,
      holders: outcomes.holders,
      amount: usdt(s.amount),
      price: usdt(price),
      percent: percent(s.count, outcomes.holders),
    });
  // The counts ("3 of 8") read as figures on their own line; the bounds as one paragraph.
  const counted = (s) => s.key === 'node-outcomes-nothing' || s.key === 'node-outcomes-below';
  return (
    <div className="summary-box" data-testid="node-outcomes">
      <h2>{t('node-outcomes-title')}</h2>
      {outcomes ? (
        <>
          <p translate="no" data-testid="node-outcomes-text">
            {[
              t('node-outcomes-holders', { holders: outcomes.holders }),
              ...outcomes.said.filter((s) => !counted(s)).map(say),
            ].join(' ')}
          </p>
          {outcomes.said.filter(counted).map((s) => (
            <p key={s.key} className="figure-line" translate="no" data-testid={s.key}>
              {say(s)}
            </p>
          ))}
        </>
      ) : (
        <p>{t('node-outcomes-few', { count: fewest })}</p>
      )}
      <p className="muted small">{t('node-outcomes-how')}</p>
    </div>
  );
}

function Node({ data, account, connect, reload, available }) {
  const { t, i18n } = useTranslation();
  const { chain } = settings;
  const [step, run] = useChainAction();
  const node = data.node;
  const linked = storedWallet();
  const buy = async () => {
    const price = node.price;
    const txs = await spending(
      account,
      { token: chain.usdt, spender: chain.activationNode, amount: price },
      { to: chain.activationNode, data: calldata('ActivationNode', 'buy', [price]), simulate: true },
    );
    run(account, txs, { action: 'buy-node', values: { usdt: formatUsdt(price) } }, reload);
  };
  const reason = (() => {
    if (!available || !node) return 'network-unavailable';
    if (!node.onSale) return 'node-not-on-sale';
    if (!linked) return 'staking-link-wallet';
    if (!account) return null;
    if (!sameAddress(linked, account)) return 'node-other-wallet';
    return null;
  })();
  return (
    <>
      <div className="summary-box">
        <h2>{t('node-unlocks-title')}</h2>
        <ul className="plain-list">
          <li>{t('node-unlocks-commissions')}</li>
          <li>{t('node-unlocks-levels', { levels: data.levels.length })}</li>
          <li>{t('node-unlocks-once')}</li>
        </ul>
      </div>
      {node && !data.activationNode && (
        <Outcomes outcomes={data.nodeOutcomes} price={node.price} fewest={data.nodeOutcomesMin} />
      )}
      <div className="summary-box" data-testid="node-status">
        <h2>{t('node-status-title')}</h2>
        {data.activationNode ? (
          <p className="notice success">
            {t('node-active-since', { date: formatDate(data.activationNode.activatedAt, i18n.language) })}
          </p>
        ) : (
          <>
            <p>{t('node-inactive')}</p>
            {node && (
              <p className="figure" translate="no" data-testid="node-price">
                {formatUsdt(node.price)} USDT
              </p>
            )}
            <ConnectOr
              connect={!account}
              onConnect={connect}
              onClick={buy}
              disabled={Boolean(reason) || BUSY.includes(step.state)}
              describedBy="node-reason"
            >
              {t('node-buy')}
            </ConnectOr>
            <p id="node-reason" className="muted small">
              {reason ? t(reason) : ''}
            </p>
          </>
        )}
      </div>
      <TxStatus step={step} />
    </>
  );
}

export default function ActivationNode() {
  return <NetworkFrame titleKey="menu-activation-node">{(props) => <Node {...props} />}</NetworkFrame>;
}
