// "Send the code again", held back while `wait` (useResendWait's seconds) runs down and while a
// send is on its way. The sign-in and registration code steps share it.
import { useTranslation } from 'react-i18next';

export default function ResendButton({ wait, sending, onClick }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button secondary wide"
      disabled={sending || wait > 0}
      onClick={onClick}
      aria-busy={sending}
    >
      {wait > 0 ? t('verify-resend-in', { seconds: wait }) : t('verify-resend')}
    </button>
  );
}
