// A form action with its "sending" state; a failure shows the server's translated message.
import { useState } from 'react';
import { toastError } from './toast.jsx';

export default function useSubmit(action) {
  const [sending, setSending] = useState(false);
  const submit = async (...args) => {
    setSending(true);
    try {
      await action(...args);
    } catch (e) {
      toastError(e);
    } finally {
      setSending(false);
    }
  };
  return [sending, submit];
}
