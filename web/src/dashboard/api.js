// The dashboard's own call: the network at a glance (its figures come with My assets', token/api.js).
import { api } from '../common/client.js';

/** The dashboard's card: {userCodeLink, activationNode, userRankData, claimable}. */
export const readGlance = (signal) => api('network/glance', { signal });
