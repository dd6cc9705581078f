// /reset (docs/product/accounts.md#recovery): a new password; the server ends every session of the
// account.
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { api } from '../common/client.js';
import { clearStorage, KEYS, read } from '../common/storage.js';
import PublicFrame from '../common/PublicFrame.jsx';
import TextField from '../common/TextField.jsx';
import useCoreForm from '../common/useCoreForm.js';
import useSubmit from '../common/useSubmit.js';

const FIELDS = { password: {}, passwordC: { confirms: 'password' } };

export default function Reset() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useCoreForm(FIELDS);
  const [sending, send] = useSubmit(async () => {
    const body = { userToken: read(KEYS.userToken), resetToken: read(KEYS.resetToken), ...form.values };
    await api('reset', { method: 'POST', auth: false, body });
    clearStorage();
    toast.success(t('reset-done'));
    navigate('/login', { replace: true });
  });

  const submit = (event) => {
    event.preventDefault();
    if (form.validateAll()) send();
  };

  return (
    <PublicFrame title={t('reset-title')}>
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          name="password"
          type="password"
          label={t('register-password')}
          form={form}
          autoComplete="new-password"
        />
        <TextField
          name="passwordC"
          type="password"
          label={t('register-passwordC')}
          form={form}
          autoComplete="new-password"
        />
        <button type="submit" className="button wide" disabled={sending} aria-busy={sending}>
          {sending ? t('login-sending') : t('reset-submit')}
        </button>
      </form>
    </PublicFrame>
  );
}
