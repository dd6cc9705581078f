// The admin staking screens' reward reserve monitor: as the contract holds it, the
// free part and the part reserved for open positions; the rewards reserved in the last 30 days;
// and how many weeks of new stakes at that pace the free reserve covers, with a warning under the
// configured number of weeks.
import { useTranslation } from 'react-i18next';
import useLoad from '../common/useLoad.js';
import { api } from '../common/client.js';
import { formatLvlx } from '../core/index.js';
import settings from '../common/settings.js';
import SummaryBox from '../common/SummaryBox.jsx';

export default function ReserveMonitor({ kind, version }) {
  const { t } = useTranslation();
  const { data, error } = useLoad(version === null ? null : (signal) => api('staking/reserve', { signal }), [version]);
  if (error)
    return (
      <p className="notice error" role="alert">
        {t(error.code ?? 'error-internal')}
      </p>
    );
  if (!data || data.available === false) return null;
  return (
    <ReserveSummary
      reserve={data[kind]}
      warningWeeks={data.warningWeeks}
      titleKey="reserve-title"
      testId={`${kind}-reserve`}
    />
  );
}

/** Past five years the count of weeks says nothing a person can use ("17852 weeks"). */
const HORIZON_YEARS = 5;

function cover(t, weeks) {
  if (weeks === null) return t('reserve-no-pace');
  if (weeks > HORIZON_YEARS * 52) return t('reserve-years-plus', { count: HORIZON_YEARS });
  return t('reserve-weeks', { count: weeks });
}

/** One pool's reserve as the monitor and the public solvency page show it. */
export function ReserveSummary({ reserve: r, warningWeeks, titleKey, testId, warningKey = 'reserve-warning' }) {
  const { t } = useTranslation();
  const { product } = settings;
  const lvlx = (units) => `${formatLvlx(units)} ${product}`;
  const weeks = cover(t, r.weeksCovered);
  return (
    <>
      <SummaryBox
        titleKey={titleKey}
        testId={testId}
        items={[
          ['reserve-funded', lvlx(r.funded)],
          ['reserve-reserved', lvlx(r.reserved)],
          ['reserve-free', lvlx(r.free)],
          ['reserve-pace', lvlx(r.reservedLast30Days)],
          ['reserve-cover', weeks],
        ]}
      />
      {r.warning && (
        <p className="notice error" role="alert" data-testid="reserve-warning">
          {t(warningKey, { count: warningWeeks })}
        </p>
      )}
    </>
  );
}
