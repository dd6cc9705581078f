// admin/secret-key (SPEC §2 "Secret key screen", §7 POST key): one masked input, trimmed on
// every change and required; the value is sealed by the core with the configured pass key and
// the answer's privateKey replaces it. Toasts secretKey.success / secretKey.failed.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { sealForTransport, validateField } from '../../core/index.js';
import { revealKey } from '../../api/keys.js';
import settings from '../../settings.js';
import { toastError } from '../../toast.jsx';

export default function SecretKey() {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState('');
  const [shown, setShown] = useState(false);
  const [error, setError] = useState(null);
  const [sending, setSending] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    const invalid = validateField('secretKey', value);
    setError(invalid);
    if (invalid || sending) return;
    setSending(true);
    try {
      const nonce = crypto.getRandomValues(new Uint8Array(12));
      const { privateKey } = await revealKey(sealForTransport(value, settings.secretPassKey, nonce));
      setValue(privateKey);
      toast.success(t('secretKey.success'));
    } catch (e) {
      if (e.code === 'error-rate-limit' || e.code === 'error-secret-missing') toastError(e);
      else toast.error(t('secretKey.failed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="page admin-page">
      <h1>{t('admin-menu-secret-key')}</h1>
      <p className="muted">{t('secretKey.help')}</p>
      <form className="form secret-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={id}>{t('secretKey.label')}</label>
          <div className="input-wrap">
            <input
              id={id}
              type={shown ? 'text' : 'password'}
              autoComplete="off"
              spellCheck="false"
              value={value}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={`${id}-error`}
              onChange={(e) => {
                const trimmed = e.target.value.trim();
                setValue(trimmed);
                if (error) setError(validateField('secretKey', trimmed));
              }}
            />
            <button type="button" className="reveal" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
              {shown ? t('password-hide') : t('password-show')}
            </button>
          </div>
          <p id={`${id}-error`} className="field-error" role="alert">{error ? t(error) : ''}</p>
        </div>
        <button type="submit" className="button" disabled={sending} aria-busy={sending}>
          {sending ? (
            <>
              <span className="spinner inline" aria-hidden="true" />
              {t('secretKey.sending')}
            </>
          ) : (
            t('secretKey.submit')
          )}
        </button>
      </form>
    </section>
  );
}
