// Route guards as react-router loaders: the core decides, this module only carries it out.
import { redirect } from 'react-router';
import { guard, isReferralCode } from '../core/index.js';
import settings from '../common/settings.js';
import { clearStorage, readStored } from '../common/storage.js';

/** A loader that shows the route or redirects, as the core's `guard(kind, …)` decides. */
export const guardLoader = (kind) => () => {
  const decision = guard(kind, readStored(), Date.now());
  if (decision.action === 'show') return null;
  if (decision.action === 'clearAndRedirect') clearStorage();
  throw redirect(decision.to);
};

/** /register/referred/{code}: a malformed code leaves for the landing site (docs/product/screens.md#route-guards). */
export function referralGate({ params }) {
  if (!isReferralCode(params.referralCode)) {
    window.location.replace(settings.landingUrl);
    return new Promise(() => {}); // the browser is leaving: never render the form
  }
  return guardLoader('public')();
}
