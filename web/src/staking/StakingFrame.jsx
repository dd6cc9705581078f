// What both member staking pages share: the title, the states before there is anything to act
// on (no chain configured, no wallet connected, loading, failed), a note when the connected
// wallet is not the linked one (positions are listed for the linked wallet), and the row
// actions on positions.
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { calldata, sameAddress } from '../core/index.js';
import { connectWallet, storedWallet, useConnectedAccount } from '../wallet/wallet.js';
import useChainAction from '../wallet/useChainAction.js';
import useStaking from './useStaking.js';
import Spinner from '../common/Spinner.jsx';

export function usePositionActions(pool, account, reload) {
  const [step, run] = useChainAction();
  const contract = pool === 'nft' ? 'NftStaking' : 'LvlxStaking';
  const to = pool === 'nft' ? settings.chain?.nftStaking : settings.chain?.lvlxStaking;
  const act = (fn, action, r) =>
    run(account, [{ to, data: calldata(contract, fn, [r.position]), simulate: true }], { action, row: r }, reload);
  return [step, (r) => act('withdrawInterest', 'withdraw-interest', r), (r) => act('release', 'release', r)];
}

export default function StakingFrame({ titleKey, children }) {
  const { t } = useTranslation();
  const { product, chain } = settings;
  const [account, setAccount] = useConnectedAccount();
  const staking = useStaking();
  const title = <h1>{t(titleKey, { product })}</h1>;
  if (!chain || staking.data?.available === false) {
    return (
      <section className="page">
        {title}
        <p className="notice error" role="alert">
          {t('staking-unavailable')}
        </p>
      </section>
    );
  }
  const linked = storedWallet();
  return (
    <section className="page staking-page">
      {title}
      {staking.error && (
        <p className="notice error" role="alert">
          {t(staking.error.code ?? 'error-internal')}
        </p>
      )}
      {!account ? (
        <div className="summary-box">
          <p>{t('staking-connect-help')}</p>
          <button type="button" className="button" onClick={async () => setAccount(await connectWallet())}>
            {t('wallet-connect')}
          </button>
        </div>
      ) : (
        linked &&
        !sameAddress(linked, account) && (
          <p className="notice" role="status">
            {t('staking-other-wallet')}
          </p>
        )
      )}
      {!linked && (
        <p className="notice" role="status">
          {t('staking-link-wallet')}
        </p>
      )}
      {staking.data ? children({ ...staking, account }) : !staking.error && <Spinner />}
    </section>
  );
}
