// Session refresh (docs/product/accounts.md#sessions): GET tokenVerify when the layout loads and
// every 16 minutes. auth false → clear storage and go to /login; a new token replaces the stored
// one; a failed call is only logged.
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../common/client.js';
import { clearStorage, KEYS, write } from '../common/storage.js';

export const REFRESH_MS = 16 * 60 * 1000;

export default function useSessionRefresh() {
  const navigate = useNavigate();
  useEffect(() => {
    const controller = new AbortController();
    const endSession = () => {
      clearStorage();
      navigate('/login', { replace: true });
    };
    const refresh = async () => {
      try {
        const { auth, token } = await api('tokenVerify', { signal: controller.signal });
        if (auth === false) {
          endSession();
        } else if (token) {
          write(KEYS.sessionToken, token);
        }
      } catch (e) {
        // A 401 is the server saying auth false: the session is revoked or over.
        if (e.status === 401) endSession();
        else if (e.name !== 'AbortError') console.warn('token verification failed', e);
      }
    };
    refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [navigate]);
}
