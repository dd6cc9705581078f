// The landing page's entry: the server sends it rendered already (web/prerender), in the
// visitor's language; this hydrates it once the settings and translations are read.
import { loadSettings } from '../src/common/settings.js';
import { initI18n, keepLanguageCookie } from '../src/common/i18n.js';
import { takeOver } from '../src/common/prerendered.js';
import Landing from './Landing.jsx';

const settings = await loadSettings();
await initI18n(settings);
keepLanguageCookie();
const root = document.getElementById('root');
takeOver(root, <Landing product={settings.product} />);
