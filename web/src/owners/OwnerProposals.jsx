// admin/owner-proposals: every owner action (prices, terms, limits, signer, pause, ownership) is
// a proposal to the owners' Safe. The page shows each one decoded by the core (contract,
// function, every argument in human units beside its current value, the delay it waits), its
// Safe transaction hash and who signed; an owner signs it in their own wallet (EIP-712, the
// wallet shows the same fields), and once enough have signed anyone executes it from a wallet.
// The server keeps signatures, never a key, and records an execution from its receipt.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import {
  coreErrorKey,
  localizeNumber,
  ownerActions,
  readOwnerArg,
  sameAddress,
  shortWallet,
  showOwnerArg,
  lockTerms,
} from '../core/index.js';
import { api } from '../common/client.js';
import useLoad from '../common/useLoad.js';
import { connectWallet, isRejection, signTyped, useConnectedAccount } from '../wallet/wallet.js';
import useChainAction from '../wallet/useChainAction.js';
import TxStatus from '../wallet/TxStatus.jsx';
import Copyable from '../common/Copyable.jsx';
import Spinner from '../common/Spinner.jsx';
import LoadFailed from '../common/LoadFailed.jsx';
import { formatDate } from '../common/dates.js';
import { toastError } from '../common/toast.jsx';

function Address({ address }) {
  return (
    <span translate="no" className="mono">
      <Copyable value={address} shown={shortWallet(address)} toastKey="copied-wallet" />
    </span>
  );
}

/**
 * An argument's value as people read it, exactly (owners sign what they see here): tokens to
 * their last decimal, percent, days with the seconds when they are not whole, yes/no, and an
 * address whole (a shortened one is cheap to imitate).
 */
function Value({ kind, value }) {
  const { t } = useTranslation();
  if (value === null || value === undefined) return <span className="muted">—</span>;
  if (kind === 'address')
    return (
      <span translate="no" className="mono owner-address">
        <Copyable value={value} shown={value} toastKey="copied-wallet" />
      </span>
    );
  if (kind === 'bool') return t(value === 'true' ? 'owner-proposals-yes' : 'owner-proposals-no');
  if (kind === 'text') return <span translate="no">{value}</span>;
  if (kind === 'bytes')
    return (
      <span translate="no" className="mono owner-address">
        {value}
      </span>
    );
  const whole = kind !== 'seconds' || lockTerms(0, value).wholeDays;
  const seconds = whole ? '' : ` (${t('owner-proposals-seconds', { seconds: localizeNumber(value) })})`;
  const shown =
    kind === 'seconds'
      ? `${showOwnerArg(kind, value)} ${t('owner-proposals-days')}${seconds}`
      : showOwnerArg(kind, value);
  return <span className="owner-figure">{shown}</span>;
}

/** The token an amount field is typed in (percent and days are in their labels). */
const UNITS = { usdt: 'USDT', lvlx: 'LVLX' };

const actionKey = (a) => `${a.contract}.${a.function}`;

/** One argument of the action to propose: yes or no, or typed. */
function ArgField({ arg, value, onChange, invalid }) {
  const { t } = useTranslation();
  return (
    <label className="rank-field">
      <span>
        {t(`owner-arg-${arg.name}`)}
        {UNITS[arg.kind] && <span translate="no">{` (${UNITS[arg.kind]})`}</span>}
      </span>
      {arg.kind === 'bool' ? (
        <select value={value ?? 'true'} onChange={(e) => onChange(e.target.value)}>
          <option value="true">{t('owner-proposals-yes')}</option>
          <option value="false">{t('owner-proposals-no')}</option>
        </select>
      ) : (
        <input
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value)}
          inputMode={['address', 'text', 'bytes'].includes(arg.kind) ? 'text' : 'decimal'}
          translate="no"
          aria-invalid={invalid}
          aria-describedby="owner-new-error"
        />
      )}
    </label>
  );
}

function NewProposal({ onProposed }) {
  const { t } = useTranslation();
  const actions = useMemo(() => ownerActions(), []);
  const [chosen, setChosen] = useState(actionKey(actions[0]));
  const action = actions.find((a) => actionKey(a) === chosen);
  const [values, setValues] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    let args;
    try {
      args = action.args.map((a) => readOwnerArg(a.kind, values[a.name] ?? (a.kind === 'bool' ? 'true' : '')));
    } catch (e) {
      setError(coreErrorKey(e));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await api('owner-proposals', {
        method: 'POST',
        body: { contract: action.contract, function: action.function, args },
      });
      toast.success(t('owner-proposals-proposed'), { toastId: 'owner-proposed' });
      setValues({});
      onProposed();
    } catch (e) {
      toastError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="summary-box owner-new" onSubmit={submit} data-testid="owner-new">
      <h2>{t('owner-proposals-new')}</h2>
      <label className="rank-field">
        <span>{t('owner-proposals-action')}</span>
        <select
          value={chosen}
          onChange={(e) => {
            setChosen(e.target.value);
            setValues({});
          }}
        >
          {actions.map((a) => (
            <option key={actionKey(a)} value={actionKey(a)}>
              {`${a.contract} · ${t(`owner-fn-${a.function}`)}`}
            </option>
          ))}
        </select>
      </label>
      {action.args.map((a) => (
        <ArgField
          key={a.name}
          arg={a}
          value={values[a.name]}
          onChange={(value) => setValues({ ...values, [a.name]: value })}
          invalid={Boolean(error)}
        />
      ))}
      <button type="submit" className="button small" disabled={busy} aria-busy={busy}>
        {t('owner-proposals-propose')}
      </button>
      <p id="owner-new-error" className="field-error" role="alert">
        {error ? t(error) : ''}
      </p>
    </form>
  );
}

/** What the proposal sets, beside what is set now. */
function ProposalArgs({ p }) {
  const { t } = useTranslation();
  return (
    <table className="owner-args">
      <thead>
        <tr>
          <th scope="col">{t('owner-proposals-arg')}</th>
          <th scope="col">{t('owner-proposals-value')}</th>
          <th scope="col">{t('owner-proposals-now')}</th>
        </tr>
      </thead>
      <tbody>
        {p.args.map((a) => (
          <tr key={a.name}>
            <th scope="row">{t(`owner-arg-${a.name}`)}</th>
            <td data-testid={`owner-arg-${a.name}`} data-label={t('owner-proposals-value')}>
              <Value kind={a.kind} value={a.value} />
            </td>
            <td data-label={t('owner-proposals-now')}>
              <Value kind={a.kind} value={a.now} />
            </td>
          </tr>
        ))}
        {p.state && (
          <tr>
            <th scope="row">{t(`owner-arg-${p.state.name}`)}</th>
            <td data-label={t('owner-proposals-value')}>
              <Value kind={p.state.kind} value={p.state.sets} />
            </td>
            <td data-label={t('owner-proposals-now')}>
              <Value kind={p.state.kind} value={p.state.value} />
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** The proposals a rejection at the same nonce takes the place of. */
function RejectedBy({ p, all }) {
  const { t } = useTranslation();
  return all
    .filter((o) => o.nonce === p.nonce && o.function !== 'reject')
    .map((o) => (
      <p key={o.id} className="notice" data-testid="owner-rejects">
        {t('owner-proposals-rejects', { id: o.id })} <span translate="no">{o.contract}</span> ·{' '}
        {t(`owner-fn-${o.function}`)}
      </p>
    ));
}

/** The Safe transaction's hash, nonce and date, and who signed it. */
function ProposalFacts({ p, safe }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <p className="muted">
        <span>{t('owner-proposals-hash')}</span>{' '}
        <span translate="no" className="mono">
          <Copyable
            value={p.safeTxHash}
            shown={`${p.safeTxHash.slice(0, 10)}…${p.safeTxHash.slice(-8)}`}
            toastKey="copied-hash"
          />
        </span>
        {' · '}
        {t('owner-proposals-nonce', { nonce: p.nonce })}
        {' · '}
        {formatDate(p.proposedAt, i18n.language)}
      </p>
      <p data-testid="owner-signatures">
        {t('owner-proposals-signatures', { count: p.signatures.length, threshold: safe?.threshold ?? '?' })}{' '}
        {p.signatures.map((s) => (
          <span key={s} className="owner-signer">
            <Address address={s} />{' '}
          </span>
        ))}
      </p>
    </>
  );
}

/** Signing, rejecting and executing a proposal, each toasted; `onChange` once one went through. */
function useProposalActions(p, account, onChange) {
  const { t } = useTranslation();
  const [step, run] = useChainAction();
  const [signing, setSigning] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const reject = async () => {
    setRejecting(true);
    try {
      // An empty Safe transaction at the proposal's nonce, proposed like any other.
      await api(`owner-proposals/${p.id}/rejection`, { method: 'POST' });
      toast.success(t('owner-proposals-rejected'), { toastId: `owner-rejected-${p.id}` });
      onChange();
    } catch (e) {
      toastError(e);
    } finally {
      setRejecting(false);
    }
  };
  const sign = async () => {
    setSigning(true);
    try {
      const signature = await signTyped(account, p.typedData);
      await api(`owner-proposals/${p.id}/signatures`, { method: 'POST', body: { signature } });
      toast.success(t('owner-proposals-signed'), { toastId: `owner-signed-${p.id}` });
      onChange();
    } catch (e) {
      if (!isRejection(e)) toastError(e);
    } finally {
      setSigning(false);
    }
  };
  const execute = () =>
    run(account, [{ to: p.safe, data: p.execCalldata, simulate: true }], { action: 'owner-execute' }, async (hash) => {
      await api(`owner-proposals/${p.id}/executed`, { method: 'POST', body: { tx: hash } });
      onChange();
    });
  return { step, signing, rejecting, sign, reject, execute };
}

function Proposal({ p, safe, account, delay, onChange, all }) {
  const { t } = useTranslation();
  const { step, signing, rejecting, sign, reject, execute } = useProposalActions(p, account, onChange);
  const isOwner = Boolean(account && safe?.owners.some((o) => sameAddress(o, account)));
  const signed = Boolean(account && p.signatures.some((s) => sameAddress(s, account)));
  const open = ['signing', 'ready', 'queued', 'failing'].includes(p.status);
  return (
    <article className="summary-box owner-proposal" data-testid={`owner-proposal-${p.id}`} data-status={p.status}>
      <h3>
        <span translate="no">{p.contract}</span> · {t(`owner-fn-${p.function}`)}{' '}
        <code translate="no">{p.function}</code>
      </h3>
      <p className={`owner-status ${p.status}`} data-testid="owner-status">
        {t(`owner-proposal-status-${p.status}`)}
      </p>
      {(p.args.length > 0 || p.state) && <ProposalArgs p={p} />}
      {p.function === 'reject' && <RejectedBy p={p} all={all} />}
      {p.delayed && delay && <p className="notice">{t('owner-proposals-delayed', { delay })}</p>}
      <ProposalFacts p={p} safe={safe} />
      {open && account && isOwner && !signed && (
        <button type="button" className="button small" onClick={sign} disabled={signing} aria-busy={signing}>
          {t('owner-proposals-sign')}
        </button>
      )}
      {open && p.function !== 'reject' && (
        <button
          type="button"
          className="button small secondary"
          onClick={reject}
          disabled={rejecting}
          aria-busy={rejecting}
        >
          {t('owner-proposals-reject')}
        </button>
      )}
      {p.status === 'ready' && account && (
        <button type="button" className="button small" onClick={execute} disabled={step.state === 'sending'}>
          {t('owner-proposals-execute')}
        </button>
      )}
      <TxStatus step={step} testId={`owner-tx-${p.id}`} />
      {p.executedTx && step.state !== 'confirmed' && (
        <TxStatus step={{ state: 'idle', hash: p.executedTx }} testId={`owner-executed-${p.id}`} />
      )}
    </article>
  );
}

export default function OwnerProposals() {
  const { t, i18n } = useTranslation();
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  const { data, error, retry } = useLoad((signal) => api('owner-proposals', { signal }), [version]);
  const [account, setAccount] = useConnectedAccount();
  const connect = async () => {
    const account = await connectWallet();
    if (account) setAccount(account);
  };
  const safe = data?.safe;
  const delay =
    data?.delaySeconds &&
    new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'hour', unitDisplay: 'long' }).format(
      Number(data.delaySeconds) / 3600,
    );
  return (
    <section className="page owner-proposals-page">
      <h1>{t('admin-menu-owner-proposals')}</h1>
      <p className="muted">{t('owner-proposals-intro')}</p>
      {error && <LoadFailed error={error} onRetry={retry} />}
      {!data && !error && <Spinner />}
      {data && !safe && <p className="notice">{t('owner-proposals-no-safe')}</p>}
      {safe && (
        <div className="summary-box owner-safe" data-testid="owner-safe">
          <p>
            <strong>{t('owner-proposals-safe')}</strong> <Address address={safe.address} />
          </p>
          <p>
            {t('owner-proposals-owners')}:{' '}
            {safe.owners.map((o) => (
              <span key={o} className="owner-signer">
                <Address address={o} />{' '}
              </span>
            ))}
          </p>
          <p>{t('owner-proposals-threshold', { threshold: safe.threshold, owners: safe.owners.length })}</p>
          {account ? (
            <p data-testid="owner-account">
              {t('owner-proposals-signing-as', { account: shortWallet(account) })}
              {!safe.owners.some((o) => sameAddress(o, account)) && (
                <span className="muted"> {t('owner-proposals-not-an-owner')}</span>
              )}
            </p>
          ) : (
            <button type="button" className="button small" onClick={connect}>
              {t('wallet-connect')}
            </button>
          )}
        </div>
      )}
      {safe && <NewProposal onProposed={reload} />}
      {data && (
        <>
          <h2>{t('owner-proposals-list')}</h2>
          {data.proposals.length === 0 && <p className="muted">{t('owner-proposals-empty')}</p>}
          {data.proposals.map((p) => (
            <Proposal
              key={p.id}
              p={p}
              safe={safe}
              account={account}
              delay={delay}
              onChange={reload}
              all={data.proposals}
            />
          ))}
        </>
      )}
    </section>
  );
}
