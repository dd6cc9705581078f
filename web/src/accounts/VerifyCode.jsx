// /verifycode (docs/product/accounts.md#sign-in): the code mailed at sign-in — to the address named
// here, sent again on request (within the sends allowed per hour), submitted at its fourth digit;
// then the dashboard (the user guard sends admins on to the admin area).
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { api } from '../common/client.js';
import { currentLanguage } from '../common/i18n.js';
import { clearStorage, KEYS, read, write } from '../common/storage.js';
import { storeSignedIn } from './signin.js';
import { toastError } from '../common/toast.jsx';
import PublicFrame from '../common/PublicFrame.jsx';
import CodeForm from '../common/CodeForm.jsx';
import useResendWait from '../common/useResendWait.js';
import ResendButton from '../common/ResendButton.jsx';

export default function VerifyCode() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const email = read(KEYS.userEmail);
  const [wait, restart] = useResendWait();
  const [sending, setSending] = useState(false);
  const onCode = async (code) => {
    // The language in use becomes the account's.
    const body = { code, language: currentLanguage() };
    storeSignedIn(await api('verifycode', { method: 'POST', body }));
    navigate('/dashboard', { replace: true });
  };
  const resend = async () => {
    setSending(true);
    try {
      // A new code: the old one stops working.
      const body = { language: currentLanguage() };
      const { token } = await api('verifycode/resend', { method: 'POST', body });
      write(KEYS.sessionToken, token);
      toast.success(t('verify-resent'), { toastId: 'verify-resent' });
      restart();
    } catch (e) {
      toastError(e);
    } finally {
      setSending(false);
    }
  };
  return (
    <PublicFrame title={t('verify-title')}>
      <CodeForm onCode={onCode} hint={email ? t('verify-hint-email', { email }) : t('verify-hint')}>
        <ResendButton wait={wait} sending={sending} onClick={resend} />
      </CodeForm>
      <Link to="/login" className="link" onClick={() => clearStorage()}>
        {t('verify-restart')}
      </Link>
    </PublicFrame>
  );
}
