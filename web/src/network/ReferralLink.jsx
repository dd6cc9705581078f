// The member's referral link (the app's /register/referred/{code}) with a copy button and a QR
// code drawn in the browser (the qrcode library; nothing leaves the page).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import QRCode from 'qrcode';

export const referralLink = (code) => `${window.location.origin}/register/referred/${code}`;

export default function ReferralLink({ code }) {
  const { t } = useTranslation();
  const [qr, setQr] = useState(null);
  const link = code ? referralLink(code) : '';
  useEffect(() => {
    if (!link) return undefined;
    let live = true;
    QRCode.toDataURL(link, { margin: 1, width: 176, errorCorrectionLevel: 'M' }).then(
      (url) => live && setQr(url),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [link]);
  if (!code) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(t('copied-link'), { toastId: 'copied-link' });
    } catch {
      toast.error(t('copy-failed'));
    }
  };
  return (
    <div className="summary-box referral-link" data-testid="referral-link">
      <h2>{t('network-link-title')}</h2>
      <p className="muted">{t('network-link-help')}</p>
      <div className="referral-row">
        <div className="referral-text">
          <code translate="no" data-testid="referral-url">
            {link}
          </code>
          <button type="button" className="button small" onClick={copy}>
            {t('network-link-copy')}
          </button>
        </div>
        {qr && <img className="referral-qr" src={qr} width="176" height="176" alt={t('network-link-qr')} />}
      </div>
    </div>
  );
}
