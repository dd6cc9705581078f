// Whether the page is at phone width: the breakpoint below which tables become cards (the styles'
// `@media (max-width: 700px)` blocks are the same line).
import { useSyncExternalStore } from 'react';

const PHONE = '(max-width: 700px)';

const subscribe = (onChange) => {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

export default function usePhone() {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE).matches);
}
