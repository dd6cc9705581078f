// Click to copy (SPEC §2, §8): shows `shown`, copies `value`, confirms with a success toast.
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';

export default function Copyable({ value, shown, toastKey }) {
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
      {shown ?? value}
    </button>
  );
}
