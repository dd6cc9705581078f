// One member action on chain as a list of transactions (approve, then the action): each is
// simulated first where asked (a call that would revert is explained, never sent), sent from the
// connected account, and followed until mined; the state names what is happening now, and a
// failure is a translation key. Every action is one of actions.js's, whose words TxStatus says.
// The token, NFT, staking, network and owners' pages share it.
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { revertKey } from '../core/index.js';
import * as eth from './eip1193.js';
import { CHAIN_ACTIONS } from './actions.js';

export const BUSY = ['approving', 'simulating', 'sending'];

async function mined(hash) {
  const receipt = await eth.waitForReceipt(hash);
  if (receipt.status !== '0x1') throw Object.assign(new Error('reverted'), { data: '0x' });
  return receipt;
}

/**
 * [step, run]: `run(account, txs, label, done)` sends `txs` ({to, data, approval?, simulate?}) in
 * order; `label` is {action (a key of CHAIN_ACTIONS), values (its words' figures), ...what the
 * page keeps}; `step` is {state: idle | approving | simulating | sending | confirmed | rejected |
 * failed, hash?, key?, label}; `done(hash)` runs after the last one is mined.
 */
export default function useChainAction() {
  const { t } = useTranslation();
  const [step, setStep] = useState({ state: 'idle' });
  const run = useCallback(
    async (account, txs, label, done) => {
      if (!CHAIN_ACTIONS[label?.action]) throw new Error(`unknown chain action ${label?.action}`);
      if (txs.some((tx) => tx.approval) && !CHAIN_ACTIONS[label.action].approves)
        throw new Error(`chain action ${label.action} has no approval step`);
      try {
        await eth.ensureChain(settings.chain, t('chain-name'));
        let hash = null;
        for (const tx of txs) {
          if (tx.simulate) {
            setStep({ state: 'simulating', label });
            try {
              await eth.ethCall(tx.to, tx.data, account);
            } catch (e) {
              setStep({ state: 'failed', key: revertKey(eth.revertData(e) ?? '0x'), label });
              return false;
            }
          }
          const state = tx.approval ? 'approving' : 'sending';
          setStep({ state, label });
          hash = await eth.sendTransaction(account, tx.to, tx.data);
          setStep({ state, hash, label });
          await mined(hash);
        }
        setStep({ state: 'confirmed', hash, label });
        await done?.(hash);
        return true;
      } catch (e) {
        if (eth.isRejection(e)) {
          setStep({ state: 'rejected', label });
        } else {
          const data = eth.revertData(e);
          console.warn('transaction failed', e);
          setStep({ state: 'failed', key: data ? revertKey(data) : 'tx-failed', label });
        }
        return false;
      }
    },
    [t],
  );
  return [step, run, setStep];
}
