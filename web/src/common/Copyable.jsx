// Click to copy (docs/product/screens.md#toasts): shows `shown`, copies `value`, confirms with a
// success toast.
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';

/** `toastKey`: the confirmation (wallet, email, or any other text). */
export default function Copyable({ value, shown, toastKey = 'copied-text' }) {
  const { t } = useTranslation();
  if (!value) return <span className="muted">—</span>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(t(toastKey), { toastId: `${toastKey}:${value}` });
    } catch {
      toast.error(t('copy-failed'));
    }
  };
  return (
    <button type="button" className="copyable" onClick={copy} title={value} translate="no">
      {shown && shown !== value ? (
        <>
          {/* The whole value: in the title on hover, in place of the short one on keyboard focus. */}
          <span className="copyable-short">{shown}</span>
          <span className="copyable-full">{value}</span>
        </>
      ) : (
        value
      )}
    </button>
  );
}
