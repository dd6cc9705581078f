// The live channel (/api/v1/ws): opened on demand by the first subscriber, closed with
// the last, reconnecting forever (1 s, growing by a second to 5 s;
// docs/product/chain.md#live-pushes). The first message carries the session token; then the server
// pushes what this viewer may see.
import { useEffect, useRef, useState } from 'react';
import { KEYS, read } from './storage.js';

const listeners = new Set();
let socket = null;
let retry = null;
let delayMs = 1000;
/** Whether the open socket is authenticated (pushes from now on reach this page). */
let ready = false;
/** How long a page waits for the channel before loading anyway (the server may be unreachable). */
const READY_WAIT_MS = 2000;

function open() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/ws`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token: read(KEYS.sessionToken) ?? '' }));
  ws.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === 'ready') {
      delayMs = 1000;
      ready = true;
    }
    for (const listener of listeners) listener(message);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    ready = false;
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
  if (ready) queueMicrotask(() => listeners.has(listener) && listener({ type: 'ready' }));
  if (!socket && !retry) open();
  return () => {
    listeners.delete(listener);
    if (listeners.size) return;
    clearTimeout(retry);
    retry = null;
    const ws = socket;
    socket = null;
    ready = false;
    ws?.close();
  };
}

/**
 * A counter for pages that reload what they show when something new is recorded: null until the
 * channel is ready (so a load that starts then cannot miss a push; after 2 s the page loads
 * anyway), then growing after each push of `type` (a kind, or a list of kinds; trailing, at most
 * once per `quietMs`), after
 * a "reload" push, and after a reconnection (pushes may have been missed meanwhile).
 */
export function useLiveVersion(type, quietMs = 0) {
  // One kind of push, or several (a page that shows what each of them moves).
  const types = [type].flat().join(' ');
  const [version, setVersion] = useState(null);
  const timer = useRef(null);
  useEffect(() => {
    const bump = () => setVersion((v) => (v ?? 0) + 1);
    const fallback = setTimeout(() => setVersion((v) => v ?? 0), READY_WAIT_MS);
    const unsubscribe = subscribe((message) => {
      if (message.type === 'ready') {
        clearTimeout(fallback);
        bump();
        return;
      }
      // 'chain': events became final or left the chain; every page reads its figures again.
      if (!types.split(' ').includes(message.type) && message.type !== 'reload' && message.type !== 'chain') return;
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        bump();
      }, quietMs);
    });
    return () => {
      unsubscribe();
      clearTimeout(fallback);
      clearTimeout(timer.current);
      timer.current = null;
    };
  }, [types, quietMs]);
  return version;
}

/** Calls `onMessage` with each push of `type` while mounted. */
export function useLive(type, onMessage) {
  const latest = useRef(onMessage);
  latest.current = onMessage;
  useEffect(() => subscribe((message) => message.type === type && latest.current(message)), [type]);
}
