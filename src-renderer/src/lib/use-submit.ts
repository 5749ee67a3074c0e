// A form's send (the dialogs' Save and Modify, Add / Remove margin, the leverage editor's Confirm,
// Close of a running replay): `busy` while it is on its way (the caller turns its button off; a
// second send meanwhile is ignored) and its failure in `error`, cleared as the send starts. The
// failure is the venue's refusal with its code (refusalText) unless the caller words it otherwise
// (`describe`); `failed` hears it too. What success does (a toast, closing) is the work's own.
import { useState } from 'react';
import { refusalText } from './frame.ts';

interface SendOptions {
  /** How a failure is said: the venue's refusal with its code unless given. */
  describe?: (e: unknown) => string;
  /** Called with the failure's text, once `error` holds it. */
  failed?: (text: string) => void;
}

export interface Submit {
  busy: boolean;
  /** The last send's failure, or what the caller set (a field refused before sending). */
  error: string | null;
  setError: (error: string | null) => void;
  /** Runs `work` unless a send is on its way; resolves once it is done, failed or not. */
  send: (work: () => Promise<unknown>, options?: SendOptions) => Promise<void>;
}

export function useSubmit(): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (work: () => Promise<unknown>, options: SendOptions = {}): Promise<void> => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      const text = (options.describe ?? refusalText)(e);
      setError(text);
      options.failed?.(text);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, send };
}
