// The member's staking data (terms and reserves from the chain, positions from the index),
// reloaded when one of their staking events is recorded (the live channel) or after their own
// transaction; and the chain's clock, ticking each second, for the live reward figures.
import { useEffect, useRef, useState } from 'react';
import useLoad from '../common/useLoad.js';
import { api } from '../common/client.js';
import { useLiveVersion } from '../common/live.js';

const seconds = () => Math.floor(Date.now() / 1000);

export default function useStaking() {
  const version = useLiveVersion('stake', 300);
  const [reloads, setReloads] = useState(0);
  const loadedAt = useRef(seconds());
  const load = (signal) => {
    loadedAt.current = seconds();
    return api('staking', { signal });
  };
  const { data, error, loading } = useLoad(version === null ? null : load, [version, reloads]);
  // The server answers `now` as the later of its clock and the latest block's: the contract's
  // "now" when a development chain's time runs ahead.
  const offset = data ? data.now - loadedAt.current : 0;
  const [now, setNow] = useState(seconds() + offset);
  useEffect(() => {
    setNow(seconds() + offset);
    const timer = setInterval(() => setNow(seconds() + offset), 1000);
    return () => clearInterval(timer);
  }, [offset]);
  return { data, error, loading, now, reload: () => setReloads((n) => n + 1) };
}
