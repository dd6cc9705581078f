// What every page has: the page itself, toasts (SPEC §9) and the cookie banner.
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import CookieBanner from './CookieBanner.jsx';
import { TOAST_MS, ToastClose } from '../toast.jsx';

export default function Root() {
  const { t } = useTranslation();
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
