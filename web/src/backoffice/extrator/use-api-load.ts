// One load shape for the Extrator and Relatórios screens: what a key names is fetched whenever the key
// changes; a failure is logged and shown in the server's words (SPEC.md section 8).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ApiClient } from '../../api/client';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';

export type Load<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; value: T }
  | { status: 'failed'; message: string };

export interface LoadFailure {
  /** What goes to /api/logger. */
  log: string;
  /** What the screen shows when the server sent no message. */
  text: string;
}

/**
 * Fetches with `fetch` each time `key` changes (null: nothing to load, 'idle'). The answer is kept with the
 * key it was asked for, so a slow answer to an older choice never shows under a newer one.
 */
export function useApiLoad<T>(
  key: string | null,
  fetch: (api: ApiClient) => Promise<T>,
  failure: LoadFailure,
): Load<T> {
  const { api, log } = useBackofficeApi();
  const [settled, setSettled] = useState<{ key: string; load: Load<T> } | null>(null);
  // `fetch` is a new closure on every render; the request must run once per key.
  const latest = useRef({ fetch, failure });
  useLayoutEffect(() => {
    latest.current = { fetch, failure };
  });

  useEffect(() => {
    if (key === null) return;
    let active = true;
    const current = latest.current;
    current.fetch(api).then(
      (value) => {
        if (active) setSettled({ key, load: { status: 'done', value } });
      },
      (error: unknown) => {
        if (!active) return;
        log(current.failure.log, error);
        setSettled({
          key,
          load: { status: 'failed', message: serverMessageOr(error, current.failure.text) },
        });
      },
    );
    return () => {
      active = false;
    };
  }, [key, api, log]);

  if (key === null) return { status: 'idle' };
  if (settled === null || settled.key !== key) return { status: 'loading' };
  return settled.load;
}

/** A choice that belongs to a scope (the chosen project): under another scope it falls back to `fallback`. */
export function useScopedChoice<T>(scope: string, fallback: T): [T, (value: T) => void] {
  const [chosen, setChosen] = useState<{ scope: string; value: T } | null>(null);
  const choose = useCallback((value: T) => setChosen({ scope, value }), [scope]);
  return [chosen !== null && chosen.scope === scope ? chosen.value : fallback, choose];
}
