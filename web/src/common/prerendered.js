// Pages the server sends already rendered (the landing page and sign-in, see web/prerender): a
// phone on a slow network shows them at once, and the app hydrates them when its code has
// arrived — the same elements, not a second paint. What the person typed meanwhile is kept.
import { createContext, createElement, useContext, useEffect, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

/**
 * True while the page is rendered at build time and during the app's first render over it
 * (which must produce the same markup): nothing can act yet. False from the next render on.
 */
export const Prerendering = createContext(false);
export const usePrerendering = () => useContext(Prerendering);

/** At build time, the consent decision the rendered variant stands for (else the cookie decides). */
export const ConsentSeen = createContext(undefined);
export const useConsentSeen = () => useContext(ConsentSeen);

let typed = {};

/** What was typed into the rendered page's fields before the app took over ({name: value}). */
export const typedBefore = () => typed;

/**
 * Renders `children` as at build time first (hydration), then as the live app; once hydrated,
 * `root` loses its mark (what the browser tests wait for) and the typed values are let go.
 */
function Hydrating({ root, children }) {
  const [first, setFirst] = useState(true);
  useEffect(() => {
    setFirst(false);
    delete root.dataset.prerendered;
    typed = {};
  }, [root]);
  return createElement(Prerendering.Provider, { value: first }, children);
}

/**
 * Renders `element` into `root`: a page the server sent rendered is hydrated (its elements kept;
 * should the language differ, React renders it again), any other root rendered afresh. What was
 * typed into the rendered page's named fields seeds the forms' state (`typedBefore`).
 */
export function takeOver(root, element) {
  if (!root.dataset.prerendered) {
    createRoot(root).render(element);
    return;
  }
  typed = {};
  for (const input of root.querySelectorAll('input[name]')) if (input.value) typed[input.name] = input.value;
  hydrateRoot(root, createElement(Hydrating, { root }, element), {
    onRecoverableError: (error) => console.warn('the rendered page was rendered again', error),
  });
}
