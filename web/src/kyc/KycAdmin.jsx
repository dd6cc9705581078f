// The admin users table's KYC parts: the status filter, and the dialog where an
// admin sets or corrects a member's status with a reason (each change audited by the server,
// listed here newest first).
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import Dialog from '../common/Dialog.jsx';
import useSubmit from '../common/useSubmit.js';
import { api } from '../common/client.js';
import { formatDate } from '../common/dates.js';

export const KYC_STATUSES = ['none', 'pending', 'approved', 'rejected'];

export function KycBadge({ status }) {
  const { t } = useTranslation();
  return (
    <span className={`kyc-badge kyc-${status}`} data-testid="kyc-badge">
      {t(`kyc-status-${status}`)}
    </span>
  );
}

export function KycFilter({ table }) {
  const { t } = useTranslation();
  const id = useId();
  if (!table.query) return null;
  return (
    <div className="search-box" data-tool="filter">
      <label htmlFor={id}>{t('kyc-filter')}</label>
      <select
        id={id}
        value={table.query.kyc ?? ''}
        onChange={(e) => table.update({ kyc: e.target.value || undefined })}
        data-testid="kyc-filter"
      >
        <option value="">{t('kyc-filter-all')}</option>
        {KYC_STATUSES.map((s) => (
          <option key={s} value={s}>
            {t(`kyc-status-${s}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A member's KYC changes, newest first (null: not yet read; none when the read fails). */
function useKycHistory(id) {
  const [history, setHistory] = useState(null);
  useEffect(() => {
    const controller = new AbortController();
    api(`users/${id}/kyc`, { signal: controller.signal }).then(
      (v) => setHistory(v.history),
      () => setHistory([]),
    );
    return () => controller.abort();
  }, [id]);
  return history;
}

/** Each change: when, to what, by which admin and why (or by the provider). */
function KycHistory({ history }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <h3>{t('kyc-history')}</h3>
      {history === null ? (
        <p className="muted">{t('loading')}</p>
      ) : history.length === 0 ? (
        <p className="muted">{t('kyc-history-empty')}</p>
      ) : (
        <ul className="audit-list" data-testid="kyc-history">
          {history.map((h, i) => (
            <li key={i}>
              <span translate="no">{formatDate(h.at, i18n.language)}</span> · <KycBadge status={h.status} /> ·{' '}
              {h.admin ? (
                <>
                  <span translate="no">{h.admin}</span>: <span translate="no">{h.reason}</span>
                </>
              ) : (
                t('kyc-by-provider')
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** `member`: the row ({id, names, kyc}); `onChanged(status)` after a saved change. */
export function KycDialog({ member, onClose, onChanged }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState(member.kyc);
  const [reason, setReason] = useState('');
  const selectId = useId();
  const reasonId = useId();
  const history = useKycHistory(member.id);
  const [sending, submit] = useSubmit(async () => {
    const saved = await api(`users/${member.id}/kyc`, { method: 'PUT', body: { status, reason } });
    toast.success(t('kyc-saved'));
    onChanged(saved.status);
  });
  return (
    <Dialog
      open
      title={t('kyc-dialog-title', { name: member.names })}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button secondary" onClick={onClose}>
            {t('dialog-close')}
          </button>
          <button type="submit" form="kyc-form" className="button" disabled={sending || !reason.trim()}>
            {t('kyc-save')}
          </button>
        </>
      }
    >
      <form
        id="kyc-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="kyc-form"
      >
        <label htmlFor={selectId}>{t('kyc-status')}</label>
        <select id={selectId} value={status} onChange={(e) => setStatus(e.target.value)}>
          {KYC_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`kyc-status-${s}`)}
            </option>
          ))}
        </select>
        <label htmlFor={reasonId}>{t('kyc-reason')}</label>
        <textarea
          id={reasonId}
          value={reason}
          maxLength={500}
          rows={3}
          required
          onChange={(e) => setReason(e.target.value)}
        />
      </form>
      <KycHistory history={history} />
    </Dialog>
  );
}
