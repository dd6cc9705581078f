// /solvency (anyone, signed in or not): the platform's solvency as the contracts hold it — each
// reward reserve (what it holds for open stakes, what is free for new ones and how many weeks of
// them it covers), what members are owed against what the claim distributor holds, and the newest
// check of the books against the chain. Read by the server at most every 10 s.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettings } from '../common/settings.js';
import { formatLvlx, localizeNumber } from '../core/index.js';
import { api } from '../common/client.js';
import useLoad from '../common/useLoad.js';
import PublicFrame from '../common/PublicFrame.jsx';
import Spinner from '../common/Spinner.jsx';
import SummaryBox from '../common/SummaryBox.jsx';
import LoadFailed from '../common/LoadFailed.jsx';
import { formatDate } from '../common/dates.js';
import { ReserveSummary } from '../staking/ReserveMonitor.jsx';

function Books({ books }) {
  const { t, i18n } = useTranslation();
  if (!books) return <p data-testid="solvency-books">{t('solvency-books-never')}</p>;
  const when = formatDate(books.at, i18n.language);
  const number = (n) => localizeNumber(String(n), i18n.language);
  const block = number(books.block);
  const [tone, text] = books.failed
    ? ['error', t('solvency-books-failed', { date: when })]
    : books.differences > 0
      ? ['error', t('solvency-books-differ', { date: when, count: number(books.differences), block })]
      : ['success', t('solvency-books-agree', { date: when, count: number(books.lines), block })];
  return (
    <p className={`notice ${tone}`} data-testid="solvency-books">
      {text}
    </p>
  );
}

export default function Solvency() {
  const { t, i18n } = useTranslation();
  const { product } = useSettings();
  const { data, error, retry } = useLoad((signal) => api('solvency', { signal, auth: false }), []);
  const lvlx = (units) => `${formatLvlx(units)} ${product}`;
  return (
    <PublicFrame wide title={t('solvency-title')} subtitle={t('solvency-intro', { product })}>
      <div className="solvency" data-testid="solvency">
        {error && <LoadFailed error={error} onRetry={retry} />}
        {!data && !error && <Spinner />}
        {data && (
          <>
            <p className="muted">{t('solvency-read-at', { date: formatDate(data.at, i18n.language) })}</p>
            <h2>{t('solvency-reserves')}</h2>
            <p className="muted">{t('solvency-reserves-help')}</p>
            {data.reserves.available === false ? (
              <p>{t('solvency-no-chain')}</p>
            ) : (
              ['nft', 'lvlx'].map((pool) => (
                <ReserveSummary
                  key={pool}
                  reserve={data.reserves[pool]}
                  warningWeeks={data.reserves.warningWeeks}
                  titleKey={`solvency-pool-${pool}`}
                  testId={`solvency-${pool}`}
                  warningKey="solvency-reserve-low"
                />
              ))
            )}
            <SummaryBox
              titleKey="solvency-claims"
              testId="solvency-claims"
              items={[
                ['solvency-owed', lvlx(data.claims.owed)],
                ['solvency-held', data.claims.held === null ? t('solvency-no-distributor') : lvlx(data.claims.held)],
              ]}
            />
            {data.claims.covered === false && (
              <p className="notice error" role="alert" data-testid="solvency-uncovered">
                {t('solvency-uncovered', { amount: lvlx(data.claims.shortfall) })}
              </p>
            )}
            {data.claims.covered === true && (
              <p className="notice success" data-testid="solvency-covered">
                {t('solvency-covered', { amount: lvlx(data.claims.surplus) })}
              </p>
            )}
            <h2>{t('solvency-books')}</h2>
            <Books books={data.books} />
            <p>
              <Link to="/login">{t('login-title')}</Link>
            </p>
          </>
        )}
      </div>
    </PublicFrame>
  );
}
