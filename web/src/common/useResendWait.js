// How long before a mailed code may be asked for again: the seconds left, ticking down, and
// `restart()` after each send. The sign-in and registration code steps share it.
import { useEffect, useState } from 'react';

/** Seconds before a code can be asked for again. */
const RESEND_WAIT = 30;

export default function useResendWait(seconds = RESEND_WAIT) {
  const [until, setUntil] = useState(() => Date.now() + seconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const wait = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (wait <= 0) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [wait > 0]); // eslint-disable-line react-hooks/exhaustive-deps
  const restart = () => {
    const at = Date.now();
    setNow(at);
    setUntil(at + seconds * 1000);
  };
  return [wait, restart];
}
