// /verifycode (SPEC §2, §4): the code mailed at sign-in; then the dashboard (the user guard sends
// admins on to the admin area).
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { verifyCode } from '../api/accounts.js';
import { clearStorage } from '../session/storage.js';
import { storeSignedIn } from '../session/signin.js';
import PublicFrame from '../components/PublicFrame.jsx';
import CodeForm from '../components/CodeForm.jsx';

export default function VerifyCode() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const onCode = async (code) => {
    storeSignedIn(await verifyCode(code));
    navigate('/dashboard', { replace: true });
  };
  return (
    <PublicFrame title={t('verify-title')}>
      <CodeForm onCode={onCode} hint={t('verify-hint')} />
      <Link to="/login" className="link" onClick={() => clearStorage()}>
        {t('verify-restart')}
      </Link>
    </PublicFrame>
  );
}
