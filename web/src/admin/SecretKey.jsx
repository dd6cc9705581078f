// admin/secret-key (docs/product/admin.md#secret-key): one masked input, required, the
// value sent trimmed (trimmed on submit: a secret with an inner space can be typed); the value
// is sealed by the core with the configured pass key. The
// answer's privateKey is shown in a read-only box of its own with a copy button and hidden
// again after a minute (written back into the masked field it was easy to miss and
// stayed on screen); the field is emptied. Toasts secretKey.success / secretKey.failed.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { sealForTransport, validateField } from '../core/index.js';
import { api } from '../common/client.js';
import settings from '../common/settings.js';
import { toastError } from '../common/toast.jsx';

/** Seconds the revealed key stays on screen. */
const REVEAL_SECONDS = 60;

/** The revealed key and the seconds `left` before it leaves the screen. */
function useRevealed() {
  const [revealed, setRevealed] = useState(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!revealed) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [revealed]);
  const left = revealed ? Math.ceil((revealed.until - now) / 1000) : 0;
  useEffect(() => {
    if (revealed && left <= 0) setRevealed(null);
  }, [revealed, left]);
  const reveal = (key) => {
    setNow(Date.now());
    setRevealed({ key, until: Date.now() + REVEAL_SECONDS * 1000 });
  };
  return { revealed, left, reveal, hide: () => setRevealed(null) };
}

/** The revealed key in a read-only box of its own, with a copy button and when it hides. */
function RevealedKey({ revealed, left, onHide }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(revealed.key);
      toast.success(t('secretKey.copied'), { toastId: 'secretKey.copied' });
    } catch {
      toast.error(t('copy-failed'));
    }
  };
  return (
    <div
      className="summary-box revealed-key"
      role="region"
      aria-label={t('secretKey.revealed')}
      data-testid="revealed-key"
    >
      <h2>{t('secretKey.revealed')}</h2>
      <textarea
        readOnly
        rows={2}
        value={revealed.key}
        spellCheck="false"
        translate="no"
        aria-label={t('secretKey.revealed')}
        onFocus={(e) => e.target.select()}
      />
      <div className="row-actions">
        <button type="button" className="button small" onClick={copy}>
          {t('secretKey.copy')}
        </button>
        <button type="button" className="button secondary small" onClick={onHide}>
          {t('secretKey.hide')}
        </button>
      </div>
      <p className="muted small" aria-live="polite">
        {t('secretKey.hides-in', { seconds: Math.max(left, 0) })}
      </p>
    </div>
  );
}

export default function SecretKey() {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState('');
  const [shown, setShown] = useState(false);
  const [error, setError] = useState(null);
  const [sending, setSending] = useState(false);
  const { revealed, left, reveal, hide } = useRevealed();

  const submit = async (event) => {
    event.preventDefault();
    const secret = value.trim();
    const invalid = validateField('secretKey', secret);
    setError(invalid);
    if (invalid || sending) return;
    setSending(true);
    try {
      const nonce = crypto.getRandomValues(new Uint8Array(12));
      const body = { key: sealForTransport(secret, settings.secretPassKey, nonce) };
      const { privateKey } = await api('key', { method: 'POST', body });
      setValue('');
      // A refusal earlier in the session no longer applies: it leaves with the success.
      toast.dismiss('secretKey.failed');
      reveal(privateKey);
      toast.success(t('secretKey.success'));
    } catch (e) {
      // Only a refused secret is "not correct"; an unreachable server or any other failure
      // says what it is.
      if (e.code === 'error-secret-wrong') toast.error(t('secretKey.failed'), { toastId: 'secretKey.failed' });
      else toastError(e);
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
                setValue(e.target.value);
                if (error) setError(validateField('secretKey', e.target.value.trim()));
              }}
            />
            <button type="button" className="reveal" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
              {shown ? t('secretKey.hide-secret') : t('secretKey.show')}
            </button>
          </div>
          <p id={`${id}-error`} className="field-error" role="alert">
            {error ? t(error) : ''}
          </p>
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
      {revealed && <RevealedKey revealed={revealed} left={left} onHide={hide} />}
    </section>
  );
}
