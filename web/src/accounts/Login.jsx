// /login (docs/product/accounts.md#sign-in): email and password, checked by the core's rules; the
// server mails a 4-digit code, the verifyCode marker is stored and /verifycode asks for it.
import { Link, useLocation, useNavigate } from 'react-router';
import { fieldMaxLength } from '../core/index.js';
import { useTranslation } from 'react-i18next';
import { api } from '../common/client.js';
import { withLanguageAndCaptcha } from './captcha.js';
import { KEYS, write } from '../common/storage.js';
import PublicFrame from '../common/PublicFrame.jsx';
import TextField from '../common/TextField.jsx';
import useCoreForm from '../common/useCoreForm.js';
import useSubmit from '../common/useSubmit.js';
import { typedBefore, usePrerendering } from '../common/prerendered.js';

const FIELDS = { email: {}, password: { rule: 'currentPassword' } };

export default function Login() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Arrived from signing out (the shell's one question): said here, not in a second dialog.
  const signedOut = useLocation().state?.signedOut === true;
  // Sent rendered (web/prerender): what was typed before the app took over is kept, and nothing
  // can be sent until then (the disabled button also stops Enter from sending the form as a GET).
  const prerendering = usePrerendering();
  const form = useCoreForm(FIELDS, typedBefore());
  const [sending, send] = useSubmit(async () => {
    const { email, password } = form.values;
    const { token } = await api('login', {
      method: 'POST',
      auth: false,
      body: await withLanguageAndCaptcha({ email, password }),
    });
    write(KEYS.sessionToken, token);
    write(KEYS.verifyCode, 'true');
    write(KEYS.loginStep, '2');
    write(KEYS.userEmail, form.values.email);
    navigate('/verifycode');
  });

  const submit = (event) => {
    event.preventDefault();
    if (form.validateAll()) send();
  };

  return (
    <PublicFrame title={t('login-title')} subtitle={t('login-subtitle')}>
      {/* POST: were the rendered form ever sent before the app took over (a password manager's
          auto-submit), the password would not land in a URL, a history or a log. */}
      {signedOut && (
        <p className="notice success" role="status" data-testid="signed-out">
          {t('logout-success')}
        </p>
      )}
      <form className="form" method="post" onSubmit={submit} noValidate>
        <TextField name="email" type="email" label={t('login-email')} form={form} autoComplete="username" />
        <TextField
          name="password"
          type="password"
          label={t('login-password')}
          form={form}
          autoComplete="current-password"
          maxLength={fieldMaxLength('currentPassword')}
        />
        <button
          type="submit"
          className="button wide"
          disabled={sending || prerendering}
          aria-busy={sending || prerendering}
        >
          {sending ? t('login-sending') : t('login-submit')}
        </button>
        <Link to="/recover" className="link">
          {t('login-forgot')}
        </Link>
        <p className="muted small">{t('login-no-account')}</p>
      </form>
    </PublicFrame>
  );
}
