// /verifycode (docs/product/accounts.md#sign-in): the code mailed at sign-in — to the address named
// here, sent again on request (within the sends allowed per hour), submitted at its fourth digit;
// then the dashboard (the user guard sends admins on to the admin area).
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { resendLoginCode, verifyCode } from './api.js';
import { clearStorage, KEYS, read, write } from '../common/storage.js';
import { storeSignedIn } from './signin.js';
import { toastError } from '../common/toast.jsx';
import PublicFrame from '../common/PublicFrame.jsx';
import CodeForm from '../common/CodeForm.jsx';

/** Seconds before the code can be asked for again. */
const RESEND_WAIT = 30;

export default function VerifyCode() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const email = read(KEYS.userEmail);
  const [until, setUntil] = useState(() => Date.now() + RESEND_WAIT * 1000);
  const [now, setNow] = useState(() => Date.now());
  const [sending, setSending] = useState(false);
  const wait = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (wait <= 0) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [wait > 0]); // eslint-disable-line react-hooks/exhaustive-deps
  const onCode = async (code) => {
    storeSignedIn(await verifyCode(code));
    navigate('/dashboard', { replace: true });
  };
  const resend = async () => {
    setSending(true);
    try {
      const { token } = await resendLoginCode();
      write(KEYS.sessionToken, token);
      toast.success(t('verify-resent'), { toastId: 'verify-resent' });
      setNow(Date.now());
      setUntil(Date.now() + RESEND_WAIT * 1000);
    } catch (e) {
      toastError(e);
    } finally {
      setSending(false);
    }
  };
  return (
    <PublicFrame title={t('verify-title')}>
      <CodeForm onCode={onCode} hint={email ? t('verify-hint-email', { email }) : t('verify-hint')}>
        <button
          type="button"
          className="button secondary wide"
          disabled={sending || wait > 0}
          onClick={resend}
          aria-busy={sending}
        >
          {wait > 0 ? t('verify-resend-in', { seconds: wait }) : t('verify-resend')}
        </button>
      </CodeForm>
      <Link to="/login" className="link" onClick={() => clearStorage()}>
        {t('verify-restart')}
      </Link>
    </PublicFrame>
  );
}
