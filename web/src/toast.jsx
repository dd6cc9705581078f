// Toasts as SPEC §9 gives them: 6000 ms by default, top, progress bar, pause on hover, dark.
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

/** Shows the translated message of a server error code (ApiError.code). */
export function toastError(error, options) {
  const code = error?.code && i18n.exists(error.code) ? error.code : 'error-internal';
  toast.error(i18n.t(code), { toastId: code, ...options });
}
