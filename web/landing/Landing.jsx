// The offline landing page the server serves at /landing (the default landing site), in the
// landing theme's fonts (PT Sans headings, Didact Gothic text): what the product is, how it
// works in three steps, the FAQ's first answers, and a footer with the terms of use, the
// privacy notice and the risk notice. Those three are content blocks admins edit (public to
// read); until one is written, the translations' default text stands in.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@fontsource/pt-sans/latin-700.css';
import '@fontsource/didact-gothic/latin-400.css';
import { readPublicContent } from '../src/common/content.js';
import LanguageSwitcher from '../src/common/LanguageSwitcher.jsx';
import '../src/styles/app.css';
import './landing.css';

const STEPS = [1, 2, 3];
const QUESTIONS = ['faqs1', 'faqs2', 'faqs3', 'faqs4', 'faqs5', 'faqs6'];
const NOTICES = ['terms', 'privacy', 'risk'];

/** A notice as the admins wrote it in this language (English otherwise), else the default. */
function Notice({ block, product }) {
  const { t, i18n } = useTranslation();
  const [written, setWritten] = useState(null);
  useEffect(() => {
    const controller = new AbortController();
    readPublicContent(block, i18n.language, controller.signal)
      .then((b) => setWritten(b.title ? b : null))
      .catch(() => setWritten(null));
    return () => controller.abort();
  }, [block, i18n.language]);
  const title = written?.title ?? t(`legal-${block}-title`);
  const text = written?.description ?? t(`legal-${block}-text`, { product });
  return (
    <details className="landing-notice" data-testid={`notice-${block}`}>
      <summary>{title}</summary>
      {text.split('\n').map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </details>
  );
}

export default function Landing({ product }) {
  const { t } = useTranslation();
  return (
    <div className="landing">
      <header className="public-top">
        <span className="brand">{product}</span>
        <LanguageSwitcher />
      </header>
      <main>
        <section className="landing-hero">
          <h1>{t('landing-title', { product })}</h1>
          <p>{t('landing-text', { product })}</p>
          <a className="button" href="/login">
            {t('landing-login')}
          </a>
        </section>
        <section className="landing-section" aria-labelledby="landing-how">
          <h2 id="landing-how">{t('landing-how')}</h2>
          <ol className="landing-steps">
            {STEPS.map((n) => (
              <li key={n}>
                <h3>{t(`landing-step${n}-title`)}</h3>
                <p>{t(`landing-step${n}-text`, { product })}</p>
              </li>
            ))}
          </ol>
        </section>
        <section className="landing-section" aria-labelledby="landing-faq">
          <h2 id="landing-faq">{t('faq-title')}</h2>
          {QUESTIONS.map((q) => (
            <details key={q} className="faq-item">
              <summary>{t(`${q}-q`, { product })}</summary>
              <p>{t(`${q}-a`, { product })}</p>
            </details>
          ))}
        </section>
      </main>
      <footer className="landing-footer" aria-labelledby="landing-legal">
        <p className="landing-risk">{t('landing-risk-short')}</p>
        <h2 id="landing-legal">{t('landing-legal')}</h2>
        {NOTICES.map((block) => (
          <Notice key={block} block={block} product={product} />
        ))}
      </footer>
    </div>
  );
}
