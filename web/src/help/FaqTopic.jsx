// /dashboardfaqs/:topic — the FAQ's text pages: wallet setup with a browser wallet, looking a
// transaction up on the configured block explorer, buying crypto by card through two on-ramp
// providers, and three short answers. Translated, printable (app.css @media print).
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { explorerToken } from '../core/index.js';
import NotFound from '../common/NotFound.jsx';
import { TOPIC_SECTIONS } from './topics.js';

export default function FaqTopic() {
  const { t } = useTranslation();
  const { topic } = useParams();
  const sections = TOPIC_SECTIONS[topic];
  if (!sections) return <NotFound />;
  const explorer = settings.chain?.explorerUrl;
  return (
    <article className="page faq-topic">
      <p className="no-print">
        <Link to="/dashboardfaqs">{t('faq-back')}</Link>
      </p>
      <h1>{t(`faq-topic-${topic}`)}</h1>
      <p>{t(`faq-topic-${topic}-intro`)}</p>
      {topic === 'explorer' && explorer && (
        <p data-testid="faq-explorer-link">
          <a href={explorer} target="_blank" rel="noreferrer noopener" translate="no">
            {explorer}
          </a>
          {settings.chain?.usdt && (
            <>
              {' '}
              ·{' '}
              <a href={explorerToken(explorer, settings.chain.usdt)} target="_blank" rel="noreferrer noopener">
                {t('faq-usdt-explorer')}
              </a>
            </>
          )}
        </p>
      )}
      {sections.map((s) => (
        <section key={s.heading}>
          <h2>{t(s.heading)}</h2>
          {s.answer ? (
            <p>{t(s.answer)}</p>
          ) : (
            <ol className="faq-steps">
              {Array.from({ length: s.steps }, (_, i) => (
                <li key={i}>{t(`${s.heading}-${i + 1}`)}</li>
              ))}
            </ol>
          )}
        </section>
      ))}
      <p className="no-print">
        <button type="button" className="button secondary small" onClick={() => window.print()}>
          {t('faq-print')}
        </button>
      </p>
    </article>
  );
}
