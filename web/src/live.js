// The live channel (/api/v1/ws, issue 5): opened on demand by the first subscriber, closed with
// the last, reconnecting forever (1 s, growing by a second to 5 s, SPEC §7). The first message
// carries the session token; then the server pushes what this viewer may see.
import { useEffect, useRef, useState } from 'react';
import { KEYS } from './session/storage.js';

const listeners = new Set();
let socket = null;
let retry = null;
let delayMs = 1000;

function open() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/ws`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token: localStorage.getItem(KEYS.sessionToken) ?? '' }));
  ws.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === 'ready') delayMs = 1000;
    for (const listener of listeners) listener(message);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    if (!listeners.size) return;
    retry = setTimeout(() => {
      retry = null;
      if (listeners.size && !socket) open();
    }, delayMs);
    delayMs = Math.min(delayMs + 1000, 5000);
  };
}

/** Calls `listener(message)` for every push until the answered function is called. */
export function subscribe(listener) {
  listeners.add(listener);
  if (!socket && !retry) open();
  return () => {
    listeners.delete(listener);
    if (listeners.size) return;
    clearTimeout(retry);
    retry = null;
    const ws = socket;
    socket = null;
    ws?.close();
  };
}

/**
 * A counter that grows after pushes of `type` (trailing, at most once per `quietMs`), for pages
 * that reload what they show when something new is recorded ("reload" pushes count too).
 */
export function useLiveVersion(type, quietMs = 0) {
  const [version, setVersion] = useState(0);
  const timer = useRef(null);
  useEffect(() => {
    const unsubscribe = subscribe((message) => {
      if (message.type !== type && message.type !== 'reload') return;
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        setVersion((v) => v + 1);
      }, quietMs);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer.current);
      timer.current = null;
    };
  }, [type, quietMs]);
  return version;
}

/** Calls `onMessage` with each push of `type` while mounted. */
export function useLive(type, onMessage) {
  const latest = useRef(onMessage);
  latest.current = onMessage;
  useEffect(() => subscribe((message) => message.type === type && latest.current(message)), [type]);
}
