// Cookie consent (docs/product/screens.md#cookie-consent): shown until the visitor decides; the
// decision is kept in a cookie for 365 days.
import { useLayoutEffect, useRef, useState } from 'react';
import Cookies from 'js-cookie';
import { useTranslation } from 'react-i18next';
import { useConsentSeen, usePrerendering } from './prerendered.js';

export const CONSENT_COOKIE = 'cookieConsent';
const DAYS = 365;

export default function CookieBanner() {
  const { t } = useTranslation();
  // Rendered at build time there is no cookie: the page comes in two, decided or not, and the
  // server sends the one the visitor's cookie says (web/prerender).
  const seen = useConsentSeen();
  // In a page sent rendered, the buttons wait for the app (web/src/common/prerendered.js).
  const waiting = usePrerendering();
  const [decision, setDecision] = useState(() => seen ?? Cookies.get(CONSENT_COOKIE));
  const box = useRef(null);
  const open = decision !== 'accepted' && decision !== 'declined';
  // While it is shown the banner's height is --cookie-banner-height: the side menu (and its Exit
  // button at the bottom) and the page end above it instead of behind it. Set before the first
  // paint (a layout effect), so nothing is seen moving.
  useLayoutEffect(() => {
    const el = box.current;
    if (!open || !el) return undefined;
    const root = document.documentElement;
    const set = () => root.style.setProperty('--cookie-banner-height', `${el.offsetHeight}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--cookie-banner-height');
    };
  }, [open]);
  if (!open) return null;
  const decide = (value) => {
    Cookies.set(CONSENT_COOKIE, value, {
      expires: DAYS,
      sameSite: 'Lax',
      secure: window.location.protocol === 'https:',
    });
    setDecision(value);
  };
  return (
    <section className="cookie-banner" role="region" aria-label={t('cookie-label')} ref={box}>
      <p>{t('cookie-text')}</p>
      <div className="cookie-actions">
        <button type="button" className="button secondary" disabled={waiting} onClick={() => decide('declined')}>
          {t('cookie-decline')}
        </button>
        <button type="button" className="button" disabled={waiting} onClick={() => decide('accepted')}>
          {t('cookie-accept')}
        </button>
      </div>
    </section>
  );
}
