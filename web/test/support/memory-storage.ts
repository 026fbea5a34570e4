// localStorage for tests: a Map behind the Storage interface; `refuse` makes every write throw as a full quota does.
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  refuse = false;
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.refuse) throw new DOMException('cheio', 'QuotaExceededError');
    this.items.set(key, value);
  }
}
