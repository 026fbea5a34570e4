// Cache Storage for tests: named caches of URL → Response, relative URLs read against an origin as a page does.
export const TEST_ORIGIN = 'http://127.0.0.1:3000';

const urlOf = (request: RequestInfo | URL) =>
  new URL(
    typeof request === 'string' ? request : request instanceof URL ? request.href : request.url,
    TEST_ORIGIN,
  ).href;

export class MemoryCache {
  readonly entries = new Map<string, Response>();

  async match(request: RequestInfo | URL): Promise<Response | undefined> {
    return this.entries.get(urlOf(request))?.clone();
  }

  async put(request: RequestInfo | URL, response: Response): Promise<void> {
    this.entries.set(urlOf(request), response);
  }

  async delete(request: RequestInfo | URL): Promise<boolean> {
    return this.entries.delete(urlOf(request));
  }

  async keys(): Promise<Request[]> {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

export class MemoryCaches {
  readonly caches = new Map<string, MemoryCache>();

  async has(name: string): Promise<boolean> {
    return this.caches.has(name);
  }

  async open(name: string): Promise<MemoryCache> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new MemoryCache();
      this.caches.set(name, cache);
    }
    return cache;
  }

  /** The CacheStorage the code under test takes (it calls only has and open, and the Cache methods above). */
  get storage(): CacheStorage {
    return this as unknown as CacheStorage;
  }
}
