// Pages the server sends already rendered (the landing page and sign-in, see web/prerender): a
// phone on a slow network shows them at once, and the app takes them over when its code has
// arrived. What the person typed meanwhile is kept.
import { createContext, useContext } from 'react';
import { flushSync } from 'react-dom';

/** True while the page is being rendered at build time: nothing there can act yet. */
export const Prerendering = createContext(false);
export const usePrerendering = () => useContext(Prerendering);

let typed = {};

/** What was typed into the rendered page's fields before the app took over ({name: value}). */
export const typedBefore = () => typed;

/**
 * Takes over the page the server sent rendered (when `root` holds one): reads what was typed
 * into its named fields and which had the focus, lets `render` replace the page (committed at
 * once), then puts the focus back (caret at the end). Answers whether a rendered page was there.
 */
export function takeOver(root, render) {
  if (!root.dataset.prerendered) {
    render();
    return false;
  }
  typed = {};
  for (const input of root.querySelectorAll('input[name]')) if (input.value) typed[input.name] = input.value;
  const focused = root.contains(document.activeElement) ? document.activeElement.getAttribute('name') : null;
  delete root.dataset.prerendered;
  flushSync(render);
  const input = focused && root.querySelector(`input[name="${CSS.escape(focused)}"]`);
  if (input) {
    input.focus();
    input.setSelectionRange?.(input.value.length, input.value.length);
  }
  return true;
}
