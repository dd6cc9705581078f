// Language switcher with flag icons (docs/product/screens.md#language-switcher). Flags are the
// offline SVGs of country-flag-icons (the set react-phone-number-input uses), as three standalone
// files so the full flag set stays in the registration page's chunk.
import US from 'flag-svgs/US.svg';
import ES from 'flag-svgs/ES.svg';
import BR from 'flag-svgs/BR.svg';
import { useTranslation } from 'react-i18next';
import settings from './settings.js';
import { chooseLanguage } from './i18n.js';
import { usePrerendering } from './prerendered.js';

const FLAG = { en: US, es: ES, pt: BR };

export default function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage;
  // In a page sent rendered the flags wait for the app (web/src/common/prerendered.js).
  const waiting = usePrerendering();
  return (
    <div className="language-switcher" role="group" aria-label={t('language-label')}>
      {settings.languages.map((lng) => {
        return (
          <button
            key={lng}
            type="button"
            className="flag-button"
            aria-pressed={current === lng}
            title={t(`language-${lng}`)}
            aria-label={t(`language-${lng}`)}
            data-lng={lng}
            disabled={waiting}
            onClick={() => {
              // Remembered as this browser's choice (signing in then keeps it).
              chooseLanguage(lng);
            }}
          >
            <img src={FLAG[lng]} alt="" />
          </button>
        );
      })}
    </div>
  );
}
