// Writes the pages the server sends already rendered: for each page web/prerender/render.jsx
// knows and each language of locales/, the page's HTML (as HtmlWebpackPlugin made it) with the
// rendered markup in its root, its language on <html> and what else its head needs (render.jsx's
// `head`): `landing.es.html`, `login.pt.html`…
// The server picks one by the visitor's language and fills in the product's name.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The root and whatever it holds, up to the body's end (the templates are minified: no quotes).
const ROOT = /<div id="?root"?>[\s\S]*<\/div>(\s*<\/body>)/;
const LANG = /<html lang="?[\w-]*"?/;

export default class PrerenderPlugin {
  /**
   * `bundle`: the built renderer; `templates`: page → the HTML it goes into; `locales`: the
   * folder; `preload`: page → the names of chunks whose files it asks for at once (their script
   * and wasm), before a script of the page would ask.
   */
  constructor({ bundle, templates, locales, preload = {} }) {
    Object.assign(this, { bundle, templates, locales, preload });
  }

  /** The page's preload links: a chunk's scripts as webpack loads them, its wasm as it fetches it. */
  preloads(compilation, page) {
    const files = (this.preload[page] ?? []).flatMap((name) => {
      const chunk = compilation.namedChunks.get(name);
      if (!chunk) throw new Error(`${page}: no chunk ${name} to preload`);
      return [...chunk.files, ...chunk.auxiliaryFiles];
    });
    const publicPath = compilation.outputOptions.publicPath;
    return files
      .map((file) => {
        if (file.endsWith('.js')) return `<link rel="preload" href="${publicPath}${file}" as="script">`;
        if (file.endsWith('.wasm')) return `<link rel="preload" href="${publicPath}${file}" as="fetch" crossorigin>`;
        return '';
      })
      .join('');
  }

  apply(compiler) {
    // Once the build is on disk: the pages go beside the HTML they were made from, as React
    // wrote them (no minifier touches its text markers).
    compiler.hooks.afterEmit.tapPromise('PrerenderPlugin', async (compilation) => {
      const out = compilation.outputOptions.path;
      const { pages, render, head } = await import(`${pathToFileURL(this.bundle)}?${Date.now()}`);
      const languages = fs
        .readdirSync(this.locales, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
      const translations = Object.fromEntries(
        languages.map((l) => [l, JSON.parse(fs.readFileSync(path.join(this.locales, l, `${l}.json`), 'utf8'))]),
      );
      for (const page of pages) {
        const template = fs.readFileSync(path.join(out, this.templates[page]), 'utf8');
        if (!ROOT.test(template) || !LANG.test(template)) throw new Error(`${this.templates[page]}: no root`);
        // `login.es.html` for a visitor yet to decide on cookies, `login.es.decided.html` after.
        for (const language of languages) {
          for (const decided of [false, true]) {
            const markup = await render(page, language, translations, decided);
            const html = template
              .replace(LANG, `<html lang="${language}"`)
              .replace('</head>', `${this.preloads(compilation, page)}${head(page, translations[language])}</head>`)
              .replace(ROOT, (_, end) => `<div id="root" data-prerendered="${page}">${markup}</div>${end}`);
            fs.writeFileSync(path.join(out, `${page}.${language}${decided ? '.decided' : ''}.html`), html);
          }
        }
      }
    });
  }
}
