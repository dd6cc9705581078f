// Fonts ship with the app (no font CDN): Poppins for headings, Lato for text
// (docs/product/screens.md#look).
import '@fontsource/lato/latin-400.css';
import '@fontsource/lato/latin-700.css';
import '@fontsource/poppins/latin-600.css';
