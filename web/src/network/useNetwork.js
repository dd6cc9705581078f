// The member's network data, reloaded when the live channel says their figures moved
// (commission, rank, volume, node, claim) or after their own transaction.
import { useState } from 'react';
import useLoad from '../common/useLoad.js';
import { api } from '../common/client.js';
import { useLiveVersion } from '../common/live.js';

export default function useNetwork() {
  const version = useLiveVersion('network', 300);
  const [reloads, setReloads] = useState(0);
  const state = useLoad(version === null ? null : (signal) => api('network', { signal }), [version, reloads]);
  return { ...state, reload: () => setReloads((n) => n + 1) };
}
