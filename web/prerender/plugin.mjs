// Writes the pages the server sends already rendered: for each page web/prerender/render.jsx
// knows and each language of locales/, the page's HTML (as HtmlWebpackPlugin made it) with the
// rendered markup in its root and its language on <html>: `landing.es.html`, `login.pt.html`…
// The server picks one by the visitor's language and fills in the product's name.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import webpack from 'webpack';

// The root and whatever it holds, up to the body's end (the templates are minified: no quotes).
const ROOT = /<div id="?root"?>[\s\S]*<\/div>(\s*<\/body>)/;
const LANG = /<html lang="?[\w-]*"?/;

export default class PrerenderPlugin {
  /** `bundle`: the built renderer; `templates`: page → the HTML it goes into; `locales`: the folder. */
  constructor({ bundle, templates, locales }) {
    Object.assign(this, { bundle, templates, locales });
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PrerenderPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'PrerenderPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE },
        async () => {
          const { pages, render } = await import(`${pathToFileURL(this.bundle)}?${Date.now()}`);
          const languages = fs
            .readdirSync(this.locales, { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => e.name)
            .sort();
          const translations = Object.fromEntries(
            languages.map((l) => [l, JSON.parse(fs.readFileSync(path.join(this.locales, l, `${l}.json`), 'utf8'))]),
          );
          for (const page of pages) {
            const template = compilation.getAsset(this.templates[page]).source.source().toString();
            if (!ROOT.test(template) || !LANG.test(template)) throw new Error(`${this.templates[page]}: no root`);
            for (const language of languages) {
              const markup = await render(page, language, translations);
              const html = template
                .replace(LANG, `<html lang="${language}"`)
                .replace(ROOT, (_, end) => `<div id="root" data-prerendered="${page}">${markup}</div>${end}`);
              compilation.emitAsset(`${page}.${language}.html`, new webpack.sources.RawSource(html));
            }
          }
        },
      );
    });
  }
}
