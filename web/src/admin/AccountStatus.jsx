// The admin users table's account status: a member's state (active or blocked) and the dialog
// where an admin blocks or unblocks them with a reason. A blocked member cannot sign in and
// their sessions end at once; the server audits each change.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import Dialog from '../common/Dialog.jsx';
import useSubmit from '../common/useSubmit.js';
import { api } from '../common/client.js';

/** `member`: the row ({id, names, blocked}); `onChanged` after a saved change. */
export function AccountStatusCell({ member, onChange }) {
  const { t } = useTranslation();
  return (
    <span className="account-cell">
      <span className={`kyc-badge ${member.blocked ? 'kyc-rejected' : ''}`} data-testid="account-status">
        {t(member.blocked ? 'account-status-blocked' : 'account-status-active')}
      </span>
      <button
        type="button"
        className="button secondary small"
        onClick={() => onChange(member)}
        aria-label={t(member.blocked ? 'account-unblock-of' : 'account-block-of', { name: member.names })}
      >
        {t(member.blocked ? 'account-unblock' : 'account-block')}
      </button>
    </span>
  );
}

export function AccountStatusDialog({ member, onClose, onChanged }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const next = member.blocked ? 'active' : 'blocked';
  const [sending, submit] = useSubmit(async () => {
    // `blocked`: no sign-in, sessions ended; `active`: unblocked.
    await api(`users/${member.id}/status`, { method: 'PUT', body: { status: next, reason } });
    toast.success(t(next === 'blocked' ? 'account-blocked-saved' : 'account-unblocked-saved'));
    onChanged();
  });
  return (
    <Dialog
      open
      title={t(next === 'blocked' ? 'account-block-title' : 'account-unblock-title', { name: member.names })}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button secondary" onClick={onClose}>
            {t('dialog-close')}
          </button>
          <button type="submit" form="account-status-form" className="button" disabled={sending || !reason.trim()}>
            {t(next === 'blocked' ? 'account-block' : 'account-unblock')}
          </button>
        </>
      }
    >
      <form
        id="account-status-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="kyc-form"
      >
        <p>{t(next === 'blocked' ? 'account-block-explained' : 'account-unblock-explained')}</p>
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
    </Dialog>
  );
}
