// The wallet check (docs/product/chain.md#wallet-check): a member with no linked wallet is told so
// (5 s) and sent to /dashboard, where linking happens and the wallet box says which page needs one
// until a wallet is linked; one whose connected wallet is not the linked one is told which wallet
// to connect (7 s) and sent there too. Admins skip it (they never reach the user area). Run on
// load, every 12 s and when the wallet's account or network changes.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { sameAddress, shortWalletMessage } from '../core/index.js';
import { connectedAccount, onWalletChange } from './eip1193.js';
import { storedWallet } from './wallet.js';

export const WALLET_POLL_MS = 12000;
const NOT_EXISTS_MS = 5000;
const INCORRECT_MS = 7000;

/**
 * `enabled`: false for a page open without a wallet (its row in the routes table says so);
 * `pageKey(pathname)`: the menu key of the page at `pathname`, named on the dashboard it sends to.
 */
export default function useWalletCheck(enabled, pageKey) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    const check = async () => {
      const stored = storedWallet();
      if (!stored) {
        // The page asked for cannot be used without one: an error (as commissioned), with what to do.
        toast.error(
          <div>
            <strong>{t('wallet-notexists-title')}</strong>
            <div>{t('wallet-notexists')}</div>
          </div>,
          { toastId: 'wallet-notexists', autoClose: NOT_EXISTS_MS },
        );
        // The toast goes in 5 s: the wallet box says on, beside its action, which page needs one.
        navigate('/dashboard', { replace: true, state: { walletFor: pageKey?.(pathname) ?? null } });
        return;
      }
      let connected = null;
      try {
        connected = await connectedAccount();
      } catch (e) {
        console.warn('wallet check: no answer from the wallet', e);
      }
      if (live && connected && !sameAddress(connected, stored)) {
        toast.error(t('wallet-incorrect', { wallet: shortWalletMessage(stored) }), {
          toastId: 'wallet-incorrect',
          autoClose: INCORRECT_MS,
        });
        navigate('/dashboard', { replace: true });
      }
    };
    check();
    const timer = setInterval(check, WALLET_POLL_MS);
    const unsubscribe = onWalletChange(check);
    return () => {
      live = false;
      clearInterval(timer);
      unsubscribe();
    };
  }, [enabled, pathname, navigate, t, pageKey]);
}
