// The shared layout of the user and admin areas (docs/product/screens.md#shared-layout and
// #admin-side-menu): a side menu on wide screens, a drawer from a top bar on small ones, a
// top-right control, at most 1600px wide. It refreshes the session on load and, in the user area,
// runs the wallet check (docs/product/chain.md#wallet-check).
import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { adminRoutes, userRoutes } from '../routes.js';
import settings, { useSettings } from '../common/settings.js';
import { api } from '../common/client.js';
import { clearStorage, KEYS, read, readJson, write } from '../common/storage.js';
import useSessionRefresh from './useSessionRefresh.js';
import useWalletCheck from '../wallet/useWalletCheck.jsx';
import { useLinkedWallet } from '../wallet/wallet.js';
import Dialog from '../common/Dialog.jsx';
import LanguageSwitcher from '../common/LanguageSwitcher.jsx';
import Avatar from '../accounts/Avatar.jsx';

/** The user-area row of the page at `pathname` (its text pages under it: `/dashboardfaqs/…`). */
const userRow = (pathname) => {
  const first = pathname.split('/')[1]?.toLowerCase();
  return userRoutes(settings.product).find(([path]) => path.toLowerCase() === first) ?? null;
};
/** The menu key of the member page at `pathname`, for the wallet check. */
const pageKey = (pathname) => userRow(pathname)?.[1] ?? null;

/** Admin names from the stored adminInfo, which may nest them under `user`. */
function adminNames() {
  const info = readJson(KEYS.adminInfo) ?? {};
  const who = info.user ?? info;
  return { names: who.names ?? '', lastnames: who.lastnames ?? '' };
}

/** The menu of the area's pages, the admin's name and, for admins, the exit. */
function SideMenu({ area, open, onExit }) {
  const { t } = useTranslation();
  const { product } = useSettings();
  const items = area === 'admin' ? adminRoutes : userRoutes(product);
  // Without a linked wallet, the pages that need one say so in the menu (until one is linked).
  const linked = useLinkedWallet();
  const walletless = area === 'user' && !linked;
  const { names, lastnames } = adminNames();
  return (
    <nav id="side-menu" className={`side-menu${open ? ' open' : ''}`} aria-label={t('menu-label')}>
      <div className="side-brand">{product}</div>
      {area === 'admin' && (
        <p className="side-who" data-testid="admin-names">
          {t('page-admin-welcome', { names, lastnames })}
        </p>
      )}
      <ul>
        {items.map(([path, key, , , walletFree]) => (
          <li key={path}>
            <NavLink to={`/${path}`}>
              {t(key)}
              {walletless && !walletFree && (
                <>
                  <span className="menu-badge" aria-hidden="true" data-testid="menu-needs-wallet">
                    {t('menu-needs-wallet-short')}
                  </span>
                  <span className="visually-hidden">{t('menu-needs-wallet')}</span>
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
      {area === 'admin' && (
        <button type="button" className="button exit" onClick={onExit}>
          {t('menu-exit')}
        </button>
      )}
    </nav>
  );
}

/** Asking before signing out; once out, the sign-in page says it is done (one dialog, not two). */
function ExitDialog({ confirm, onCancel, onExit }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={confirm}
      title={t('logout-confirm-title')}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button secondary" onClick={onCancel}>
            {t('logout-confirm-no')}
          </button>
          <button type="button" className="button" onClick={onExit}>
            {t('logout-confirm-yes')}
          </button>
        </>
      }
    >
      <p>{t('logout-confirm-text')}</p>
    </Dialog>
  );
}

/**
 * The small screens' drawer: closed on every new page; Escape closes it too, the focus back on
 * the top bar's toggle, which stays above the open drawer as its close button (the drawer once
 * covered it with its own header).
 */
function useDrawer(pathname) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggleRef = useRef(null);
  useEffect(() => setDrawerOpen(false), [pathname]);
  useEffect(() => {
    if (!drawerOpen) return undefined;
    const onKey = (event) => {
      if (event.key !== 'Escape') return;
      setDrawerOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen]);
  return { drawerOpen, setDrawerOpen, toggleRef };
}

export default function Shell({ area }) {
  const { t } = useTranslation();
  const { product } = useSettings();
  const location = useLocation();
  const { drawerOpen, setDrawerOpen, toggleRef } = useDrawer(location.pathname);
  const [confirmExit, setConfirmExit] = useState(false);
  const navigate = useNavigate();
  useSessionRefresh();
  // A page open without a wallet (its routes row says so) is not checked.
  useWalletCheck(area === 'user' && !userRow(location.pathname)?.[4], pageKey);

  const exit = async () => {
    setConfirmExit(false);
    try {
      const body = { token: read(KEYS.sessionToken) ?? '' };
      const { auth } = await api('signout', { method: 'POST', body });
      if (auth) {
        clearStorage();
        write(KEYS.loginStep, '1');
        navigate('/login', { replace: true, state: { signedOut: true } });
      }
    } catch (e) {
      console.warn('signout failed', e);
    }
  };

  return (
    <div className={`shell shell-${area}`}>
      {/* The first stop of the keyboard: past the menu to the page. */}
      <a className="skip-link" href="#main">
        {t('skip-to-content')}
      </a>
      <header className="topbar">
        <button
          ref={toggleRef}
          type="button"
          className="icon-button menu-toggle"
          aria-expanded={drawerOpen}
          aria-controls="side-menu"
          aria-label={drawerOpen ? t('menu-close') : t('menu-open')}
          onClick={() => setDrawerOpen((open) => !open)}
        >
          <span aria-hidden="true" className={drawerOpen ? 'burger open' : 'burger'} />
        </button>
        <span className="brand">{product}</span>
        <div className="topbar-control">
          <LanguageSwitcher />
          {area === 'user' && <Avatar />}
          {area === 'user' && (
            <button type="button" className="button secondary" onClick={() => setConfirmExit(true)}>
              {t('menu-exit')}
            </button>
          )}
        </div>
      </header>
      <SideMenu area={area} open={drawerOpen} onExit={() => setConfirmExit(true)} />
      {drawerOpen && <div className="drawer-backdrop" onClick={() => setDrawerOpen(false)} aria-hidden="true" />}
      <main className="content" id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <ExitDialog confirm={confirmExit} onCancel={() => setConfirmExit(false)} onExit={exit} />
    </div>
  );
}
