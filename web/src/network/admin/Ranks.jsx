// admin/ranks: the rank table (docs/product/network.md#ranks: ranks updatable by id). Each rank's
// name, the network volume (USDT) that reaches it and the LVLX bonus it pays once, edited in place;
// a new rank by a new id. The server checks the whole table with the core and audits every change
// (listed below, newest first); a change applies from then on, never to bonuses already paid.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import settings from '../../common/settings.js';
import {
  localizeNumber,
  editableNumber,
  coreErrorKey,
  formatUnits,
  parseAmount,
  USDT_DECIMALS,
  LVLX_DECIMALS,
} from '../../core/index.js';
import useLoad from '../../common/useLoad.js';
import { api } from '../../common/client.js';
import { formatDate } from '../../common/dates.js';
import Spinner from '../../common/Spinner.jsx';
import { isTranslatedRank, rankName } from '../../common/rankName.js';
import { toastError } from '../../common/toast.jsx';

const asText = (rank) => ({
  name: rank.name,
  threshold: editableNumber(formatUnits(rank.threshold, USDT_DECIMALS)),
  bonus: editableNumber(formatUnits(rank.bonus, LVLX_DECIMALS)),
});

/** A rank as the audit lists it: its name, threshold in USDT and bonus in the product. */
const rankText = (rank) =>
  `${rank.name} ${localizeNumber(formatUnits(rank.threshold, USDT_DECIMALS))} USDT / ` +
  `${localizeNumber(formatUnits(rank.bonus, LVLX_DECIMALS))} ${settings.product}`;

function RankRow({ rank, onSaved, isNew = false }) {
  const { t, i18n } = useTranslation();
  const [edit, setEdit] = useState(() => (rank ? asText(rank) : { name: '', threshold: '', bonus: '' }));
  const [id, setId] = useState(rank?.id ?? '');
  const [error, setError] = useState(null);
  const [saving, setSaving] = useState(false);
  const save = async (event) => {
    event.preventDefault();
    let body;
    try {
      body = {
        name: edit.name,
        threshold: parseAmount(edit.threshold, USDT_DECIMALS),
        bonus: parseAmount(edit.bonus, LVLX_DECIMALS),
      };
    } catch (e) {
      setError(coreErrorKey(e));
      return;
    }
    if (!/^[1-9][0-9]{0,8}$/.test(String(id))) {
      setError('ranks-id-invalid');
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const answer = await api(`ranks/${id}`, { method: 'PUT', body });
      toast.success(t('ranks-saved'), { toastId: `rank-${id}` });
      onSaved(answer.ranks);
      if (isNew) setEdit({ name: '', threshold: '', bonus: '' });
    } catch (e) {
      if (e?.code?.startsWith('ranks-')) setError(e.code);
      else toastError(e);
    } finally {
      setSaving(false);
    }
  };
  const field = (name, labelKey, props = {}) => (
    <label className="rank-field">
      <span>{t(labelKey)}</span>
      <input
        value={edit[name]}
        onChange={(e) => setEdit({ ...edit, [name]: e.target.value })}
        aria-invalid={Boolean(error)}
        {...props}
      />
    </label>
  );
  return (
    <form className="rank-row" onSubmit={save} data-testid={isNew ? 'rank-new' : `rank-${rank.id}`}>
      <label className="rank-field rank-id">
        <span>{t('ranks-id')}</span>
        {isNew ? (
          <input value={id} onChange={(e) => setId(e.target.value)} inputMode="numeric" />
        ) : (
          <output>{rank.id}</output>
        )}
      </label>
      {field('name', 'ranks-name', { maxLength: 40 })}
      {isTranslatedRank(i18n, edit.name) && (
        // The stored name is the translations' key: say what members read in this language.
        <p className="muted small rank-shown" data-testid="rank-shown">
          {t('ranks-members-read', { name: rankName(t, i18n, edit.name) })}
        </p>
      )}
      {field('threshold', 'ranks-threshold', { inputMode: 'decimal' })}
      {field('bonus', 'ranks-bonus', { inputMode: 'decimal' })}
      <button type="submit" className="button small" disabled={saving} aria-busy={saving}>
        {t(isNew ? 'ranks-add' : 'ranks-save')}
      </button>
      <p className="field-error" role="alert">
        {error ? t(error) : ''}
      </p>
    </form>
  );
}

export default function Ranks() {
  const { t, i18n } = useTranslation();
  const [saved, setSaved] = useState(0);
  const { data, error } = useLoad((signal) => api('ranks', { signal }), [saved]);
  return (
    <section className="page admin-page ranks-page">
      <h1>{t('admin-menu-ranks')}</h1>
      <p className="muted">{t('ranks-help', { product: settings.product })}</p>
      {error && (
        <p className="notice error" role="alert">
          {t(error.code ?? 'error-internal')}
        </p>
      )}
      {!data ? (
        !error && <Spinner />
      ) : (
        <>
          <div className="summary-box">
            {data.ranks.map((rank) => (
              <RankRow
                // A new language fills the fields again in its form ("1,125" is 1125 in English).
                key={`${rank.id}:${rank.name}:${rank.threshold}:${rank.bonus}:${i18n.language}`}
                rank={rank}
                onSaved={() => setSaved((n) => n + 1)}
              />
            ))}
            <h2>{t('ranks-new')}</h2>
            <RankRow key={`new:${i18n.language}`} isNew onSaved={() => setSaved((n) => n + 1)} />
          </div>
          <div className="summary-box">
            <h2>{t('ranks-audit')}</h2>
            {data.audit.length === 0 ? (
              <p className="muted">{t('ranks-audit-none')}</p>
            ) : (
              <ul className="plain-list" data-testid="ranks-audit">
                {data.audit.map((a, i) => (
                  <li key={i}>
                    {formatDate(a.at, i18n.language)} · <span translate="no">{a.admin}</span> · #{a.item}{' '}
                    {a.before
                      ? t('ranks-audit-changed', { before: rankText(a.before), after: rankText(a.after) })
                      : t('ranks-audit-added', { after: rankText(a.after) })}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}
