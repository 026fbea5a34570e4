// A load that keeps showing its last answer while the next one runs (a filter changed, a live event asked for
// fresh statistics), within one scope (the chosen project): under a new scope it starts empty.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ApiClient } from '../../api/client';
import { useBackofficeApi } from '../backoffice-api';
import type { LoadFailure } from '../extrator/use-api-load';
import { serverMessageOr } from '../server-message';

export interface Reload<T> {
  /** The last answer of this scope, or null (none yet, or the last request failed). */
  value: T | null;
  /** A request for `key` is under way. */
  loading: boolean;
  /** The last request's failure, in the server's words. */
  error: string | null;
}

interface Settled<T> {
  scope: string;
  key: string;
  value: T | null;
  error: string | null;
}

/**
 * Fetches with `fetch` whenever `key` changes; scope null fetches nothing. A failure is logged and kept. `signal`
 * aborts when a newer key (or scope) supersedes the request, so `fetch` can skip side effects of a stale answer.
 */
export function useReload<T>(
  scope: string | null,
  key: string,
  fetch: (api: ApiClient, signal: AbortSignal) => Promise<T>,
  failure: LoadFailure,
): Reload<T> {
  const { api, log } = useBackofficeApi();
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  // `fetch` is a new closure on every render; the request must run once per key.
  const latest = useRef({ fetch, failure });
  useLayoutEffect(() => {
    latest.current = { fetch, failure };
  });

  useEffect(() => {
    if (scope === null) return;
    const superseded = new AbortController();
    const current = latest.current;
    current.fetch(api, superseded.signal).then(
      (value) => {
        if (!superseded.signal.aborted) setSettled({ scope, key, value, error: null });
      },
      (error: unknown) => {
        if (superseded.signal.aborted) return;
        log(current.failure.log, error);
        setSettled({ scope, key, value: null, error: serverMessageOr(error, current.failure.text) });
      },
    );
    return () => {
      superseded.abort();
    };
  }, [scope, key, api, log]);

  if (scope === null) return { value: null, loading: false, error: null };
  const sameScope = settled !== null && settled.scope === scope;
  const current = sameScope && settled.key === key;
  return {
    value: sameScope ? settled.value : null,
    loading: !current,
    error: current ? settled.error : null,
  };
}
