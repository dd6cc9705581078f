// What every page has: the page itself, toasts (docs/product/screens.md#toasts) and the cookie
// banner.
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import CookieBanner from './CookieBanner.jsx';
import { dismissPageToasts, TOAST_MS, ToastClose } from './toast.jsx';

export default function Root() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => dismissPageToasts(pathname), [pathname]);
  return (
    <>
      <Outlet />
      <ToastContainer
        position="top-center"
        autoClose={TOAST_MS}
        hideProgressBar={false}
        pauseOnHover
        closeOnClick
        theme="dark"
        closeButton={ToastClose}
        aria-label={t('toast-region')}
      />
      <CookieBanner />
    </>
  );
}
