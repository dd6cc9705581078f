// Toasts (docs/product/screens.md#toasts): 6000 ms by default, top, progress bar, pause on hover,
// dark.
import { toast } from 'react-toastify';
import i18n from './i18n.js';

export const TOAST_MS = 6000;

export function ToastClose({ closeToast }) {
  return (
    <button type="button" className="toast-close" onClick={closeToast} aria-label={i18n.t('toast-close')}>
      <span aria-hidden="true">×</span>
    </button>
  );
}

// Errors a page raised about what was done on it (a wrong code, a refused form): they belong to
// that page and are dismissed when the route changes (a stale "code is wrong" must not
// follow a successful sign-in onto the dashboard). Toasts that announce a redirect are not these.
const pageToasts = new Map();

/** Shows the translated message of a server error code (ApiError.code), for this page only. */
export function toastError(error, options) {
  const code = error?.code && i18n.exists(error.code) ? error.code : 'error-internal';
  const id = toast.error(i18n.t(code), { toastId: code, ...options });
  pageToasts.set(id, typeof location === 'undefined' ? '' : location.pathname);
}

/** Dismisses the page errors raised on any other route than `pathname`. */
export function dismissPageToasts(pathname) {
  for (const [id, path] of pageToasts) {
    if (path === pathname) continue;
    toast.dismiss(id);
    pageToasts.delete(id);
  }
}
