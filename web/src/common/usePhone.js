// Whether the page is at phone width: below the md breakpoint, where tables become cards (the
// styles' `@media (max-width: 767px)` blocks are the same line).
import { useSyncExternalStore } from 'react';
import { below } from '../styles/breakpoints.js';

const PHONE = below('md');

const subscribe = (onChange) => {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

export default function usePhone() {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE).matches);
}
