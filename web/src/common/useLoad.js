// The one way a screen loads data: `load(signal)` runs when `deps` change (or not while `load` is
// null), is aborted when they change again or the screen leaves, and its outcome is
// {loading, data, error, retry}. `onError` hears failures other than the abort; `retry()` loads
// again (LoadFailed.jsx offers it beside what failed).
import { useCallback, useEffect, useRef, useState } from 'react';

export default function useLoad(load, deps, { onError } = {}) {
  const [state, setState] = useState({ loading: true, data: null, error: null });
  const [tries, setTries] = useState(0);
  const retry = useCallback(() => setTries((n) => n + 1), []);
  const latest = useRef({ load, onError });
  latest.current = { load, onError };
  useEffect(() => {
    const { load: run } = latest.current;
    if (!run) return undefined;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    run(controller.signal).then(
      (data) => setState({ loading: false, data, error: null }),
      (error) => {
        if (error?.name === 'AbortError') return;
        setState({ loading: false, data: null, error });
        latest.current.onError?.(error);
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load === null, tries, ...deps]);
  return { ...state, retry };
}
