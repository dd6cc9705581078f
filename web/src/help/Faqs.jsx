// /dashboardfaqs (docs/product/help.md#faq): the seven questions as native disclosures (several
// open at once, keyboard operable as the browser gives them), the seventh a step-by-step guide with
// three screenshots of this product in the page's language (their dimensions from the server,
// so nothing shifts as they load) and the USDT contract from configuration; links to the FAQ's
// text pages.
import { Link } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import useLoad from '../common/useLoad.js';
import { api } from '../common/client.js';
import { explorerToken } from '../core/index.js';
import Copyable from '../common/Copyable.jsx';
import Spinner from '../common/Spinner.jsx';
import Video from './Video.jsx';
import { FAQ_TOPICS } from './topics.js';
import SupportContact from '../common/SupportContact.jsx';

const QUESTIONS = ['faqs1', 'faqs2', 'faqs3', 'faqs4', 'faqs5', 'faqs6', 'faqs7'];

function UsdtAddress({ data }) {
  const { t } = useTranslation();
  if (!data.usdt) return <p className="muted">{t('faq-usdt-unavailable')}</p>;
  const link = explorerToken(data.explorer, data.usdt);
  return (
    <div className="faq-usdt" data-testid="faq-usdt">
      <span>{t('faq-usdt-contract')}</span> <Copyable value={data.usdt} />{' '}
      {link && (
        <a href={link} target="_blank" rel="noreferrer noopener">
          {t('faq-usdt-explorer')}
        </a>
      )}
    </div>
  );
}

function Guide({ data }) {
  const { t } = useTranslation();
  return (
    <ol className="faq-steps">
      {[1, 2, 3].map((n) => {
        const shot = data.images[n - 1];
        return (
          <li key={n}>
            <p>{t(`faqs7-step${n}`)}</p>
            {shot && (
              <figure>
                <img
                  src={shot.src}
                  width={shot.width}
                  height={shot.height}
                  alt={t(`faqs7-shot${n}`)}
                  loading="lazy"
                  data-testid="faq-shot"
                />
              </figure>
            )}
          </li>
        );
      })}
    </ol>
  );
}

export default function Faqs() {
  const { t, i18n } = useTranslation();
  const faq = useLoad(
    (signal) => api(`faq?lng=${encodeURIComponent(i18n.resolvedLanguage ?? 'en')}`, { signal }),
    [i18n.resolvedLanguage],
  );
  const data = faq.data;
  return (
    <section className="page faq-page">
      <h1>{t('faq-title')}</h1>
      <p className="muted">{t('faq-intro')}</p>
      <div className="faq-list">
        {QUESTIONS.map((q) => (
          <details key={q} className="faq-item" data-testid={q}>
            <summary>{t(`${q}-q`)}</summary>
            <div className="faq-answer">
              <p>{t(`${q}-a`)}</p>
              {q === 'faqs7' &&
                (data ? (
                  <>
                    <Guide data={data} />
                    <UsdtAddress data={data} />
                  </>
                ) : faq.error ? (
                  <p role="alert">{t('faq-load-failed')}</p>
                ) : (
                  <Spinner />
                ))}
              {data?.videos?.[q] && <Video video={data.videos[q]} />}
            </div>
          </details>
        ))}
      </div>
      <nav className="faq-topics" aria-label={t('faq-more')}>
        <h2>{t('faq-more')}</h2>
        <ul>
          {FAQ_TOPICS.map((topic) => (
            <li key={topic}>
              <Link to={`/dashboardfaqs/${topic}`}>{t(`faq-topic-${topic}`)}</Link>
            </li>
          ))}
        </ul>
        <p className="muted">
          <Trans i18nKey="faq-contact" />
        </p>
        <SupportContact />
      </nav>
    </section>
  );
}
