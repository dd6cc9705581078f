// /register/referred/{referralCode} (docs/product/accounts.md#registration): the multi-step
// registration, its step counter starting at 1. The route's loader (referralGate) has already
// checked the code's form; the inviter's lookup then says whose it is: a code that belongs to no
// account stops here, before anything is typed, with what to do (ask for a new link).
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
// The max metadata: it validates as libphonenumber (and the server) do; min disagreed on 277
// of testdata/phones.json's 4,929 numbers (web/test/phones.test.mjs).
import PhoneInput, { isValidPhoneNumber } from 'react-phone-number-input/max';
import flags from 'react-phone-number-input/flags';
import 'react-phone-number-input/style.css';
import enCountries from 'react-phone-number-input/locale/en.json';
import esCountries from 'react-phone-number-input/locale/es.json';
import ptCountries from 'react-phone-number-input/locale/pt.json';
import { validateField } from '../core/index.js';
import { api } from '../common/client.js';
import { withLanguageAndCaptcha } from './captcha.js';
import useLoad from '../common/useLoad.js';
import { storeSignedIn } from './signin.js';
import CodeForm from '../common/CodeForm.jsx';
import Spinner from '../common/Spinner.jsx';
import PublicFrame from '../common/PublicFrame.jsx';
import TextField, { FieldError } from '../common/TextField.jsx';
import useCoreForm from '../common/useCoreForm.js';
import useSubmit from '../common/useSubmit.js';
import useResendWait from '../common/useResendWait.js';
import ResendButton from '../common/ResendButton.jsx';
import { KEYS, write } from '../common/storage.js';

const STEPS = 3;
// Country names in the phone picker: the phone library's labels, with every region's name from
// the browser's ICU (Intl.DisplayNames) in the page's language where it has one (the library's
// Spanish list left "Jordan", "Kenya" and "Malaysia" in English).
const LIBRARY_LABELS = { en: enCountries, es: esCountries, pt: ptCountries };
function countryLabels(language) {
  const base = LIBRARY_LABELS[language] ?? enCountries;
  let names;
  try {
    names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
  } catch {
    return base;
  }
  return Object.fromEntries(
    Object.entries(base).map(([code, label]) => [code, (/^[A-Z]{2}$/.test(code) && names.of(code)) || label]),
  );
}
// Where a person writing the language most likely lives (the list still offers every country).
const DEFAULT_COUNTRY = { pt: 'BR' };
const FIELDS = {
  names: {},
  lastnames: {},
  email: {},
  emailC: { confirms: 'email' },
  cel: {},
  password: {},
  passwordC: { confirms: 'password' },
};
const STEP_FIELDS = { 1: ['names', 'lastnames', 'email', 'emailC', 'cel'], 2: ['password', 'passwordC'] };

/** Step 1: who the member is, the phone with its country picked by name. */
function PersonFields({ form }) {
  const { t, i18n } = useTranslation();
  const labels = useMemo(() => countryLabels(i18n.resolvedLanguage), [i18n.resolvedLanguage]);
  return (
    <>
      <TextField name="names" label={t('register-names')} form={form} autoComplete="given-name" />
      <TextField name="lastnames" label={t('register-lastnames')} form={form} autoComplete="family-name" />
      <TextField name="email" type="email" label={t('register-email')} form={form} autoComplete="email" />
      <TextField name="emailC" type="email" label={t('register-emailC')} form={form} autoComplete="off" />
      <div className="field">
        <label htmlFor="field-cel">{t('register-phone')}</label>
        <PhoneInput
          id="field-cel"
          international
          defaultCountry={DEFAULT_COUNTRY[i18n.resolvedLanguage] ?? 'ES'}
          // The list keeps the focus, so a country is picked by typing its name (found by
          // the keyboard test: the focus jumped to the number at the first letter).
          focusInputOnCountrySelection={false}
          flags={flags}
          labels={labels}
          value={form.values.cel}
          onChange={(value) => form.set('cel', value ?? '')}
          aria-invalid={Boolean(form.errors.cel)}
          aria-describedby="field-cel-error"
        />
        <FieldError id="field-cel-error" error={form.errors.cel} />
      </div>
    </>
  );
}

/** Step 2: the password, twice. */
function PasswordFields({ form }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        name="password"
        type="password"
        label={t('register-password')}
        form={form}
        autoComplete="new-password"
        autoFocus
      />
      <TextField
        name="passwordC"
        type="password"
        label={t('register-passwordC')}
        form={form}
        autoComplete="new-password"
      />
    </>
  );
}

/** While the inviter is read, or when the link names no one. */
function InviteLink({ unknown }) {
  const { t } = useTranslation();
  return (
    <PublicFrame title={t(unknown ? 'register-link-broken-title' : 'register-title')}>
      {unknown ? (
        <div className="notice error" role="alert" data-testid="referral-broken">
          <p>{t('register-link-broken')}</p>
        </div>
      ) : (
        <Spinner />
      )}
      <Link to="/login" className="link">
        {t('register-have-account')}
      </Link>
    </PublicFrame>
  );
}

/**
 * The last step: the code mailed to `email` (the address and how long it lasts said), sent again
 * after a wait, and the way back to the details, every field kept (a mistyped address is fixed
 * there).
 */
function CodeStep({ email, attemptId, resend, back }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { sending, wait, again } = resend;
  return (
    <>
      <CodeForm
        hint={t('verify-hint-email', { email })}
        onCode={async (code) => {
          // Registering clears userCodeLink (docs/product/accounts.md#registration); storeSignedIn
          // does.
          storeSignedIn(await api('register/verify', { method: 'POST', auth: false, body: { attemptId, code } }));
          navigate('/dashboard', { replace: true });
        }}
      >
        <ResendButton wait={wait} sending={sending} onClick={again} />
      </CodeForm>
      <button type="button" className="link" onClick={back} data-testid="register-change">
        {t('register-change-details')}
      </button>
    </>
  );
}

export default function RegisterReferred() {
  const { t } = useTranslation();
  const { referralCode } = useParams();
  const form = useCoreForm(FIELDS);
  const [step, setStep] = useState(1);
  const [attemptId, setAttemptId] = useState(null);
  // Who invited: a person's name, not the 32-character code (a failed read keeps the plain line).
  const inviter = useLoad(
    (signal) => api(`register/inviter/${encodeURIComponent(referralCode)}`, { auth: false, signal }),
    [referralCode],
  );
  const unknown = inviter.error?.code === 'error-referral-unknown';

  // The international input must also pass the phone library's validity check
  // (docs/product/accounts.md#validation).
  const phoneError = () => {
    const byCore = validateField('cel', form.values.cel);
    if (byCore) return byCore;
    return isValidPhoneNumber(form.values.cel) ? null : 'validations-phone-msg';
  };

  const [wait, restart] = useResendWait();
  // Sends the code (again, `again`: a new attempt, whose code replaces the last one's).
  const [sending, send] = useSubmit(async (again = false) => {
    const { names, lastnames, email, emailC, cel, password, passwordC } = form.values;
    const body = await withLanguageAndCaptcha({
      names,
      lastnames,
      email,
      emailC,
      cel,
      password,
      passwordC,
      referralCode,
    });
    setAttemptId((await api('register', { method: 'POST', auth: false, body })).attemptId);
    write(KEYS.registerStep, '3');
    setStep(3);
    restart();
    if (again) toast.success(t('verify-resent'), { toastId: 'verify-resent' });
  });

  const next = (event) => {
    event.preventDefault();
    const extra = step === 1 ? { cel: phoneError() } : {};
    if (!form.validateAll(STEP_FIELDS[step], extra)) return;
    if (step === 1) setStep(2);
    else send();
  };

  if (unknown || (inviter.loading && !inviter.data)) {
    return <InviteLink unknown={unknown} />;
  }

  return (
    <PublicFrame
      title={t('register-title')}
      subtitle={inviter.data ? t('register-invited-by', { name: inviter.data.name }) : t('register-invited')}
    >
      <p className="step" aria-live="polite" data-step={step}>
        {t('register-step', { step, total: STEPS })}
      </p>
      <form className="form" onSubmit={next} noValidate>
        {step === 1 && <PersonFields form={form} />}
        {step === 2 && <PasswordFields form={form} />}
        {step < 3 && (
          <button type="submit" className="button wide" disabled={sending} aria-busy={sending}>
            {t('register-next')}
          </button>
        )}
      </form>
      {step === 3 && (
        <CodeStep
          email={form.values.email}
          attemptId={attemptId}
          resend={{ sending, wait, again: () => send(true) }}
          back={() => setStep(1)}
        />
      )}
      <Link to="/login" className="link">
        {t('register-have-account')}
      </Link>
    </PublicFrame>
  );
}
