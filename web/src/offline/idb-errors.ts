// How the device's databases fail, read from the error and what it wraps: apart from storage.ts, so the record and copy
// stores (which the server's tests load) bring no DOM storage types with them.

/** Whether `test` holds for the error or anything it wraps (Dexie keeps the browser's DOMException as `inner`). */
export function someCause(
  error: unknown,
  test: (cause: object, name: unknown, message: string) => boolean,
): boolean {
  for (let cause = error; typeof cause === 'object' && cause !== null;) {
    const name = 'name' in cause ? cause.name : undefined;
    const message = 'message' in cause && typeof cause.message === 'string' ? cause.message : '';
    if (test(cause, name, message)) return true;
    cause = 'inner' in cause ? cause.inner : null;
  }
  return false;
}

/**
 * The engine refused to store a Blob, as WebKit does in a private window (webkit.org/b/156347): at once in older
 * versions ('DataCloneError: Failed to store record in an IDBObjectStore: BlobURLs are not yet supported.'), on the
 * request since 2025 ('UnknownError: Error preparing Blob/File data to be stored in object store').
 */
export function isBlobRefused(error: unknown): boolean {
  return someCause(
    error,
    (_cause, name, message) =>
      (name === 'DataCloneError' || name === 'UnknownError') && /\bblob/i.test(message),
  );
}
