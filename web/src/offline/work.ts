// What the technician is in the middle of (a sync, a compression, a wizard): a new app version waits
// until none of it is running, so an update never reloads the page under their feet.
type Listener = () => void;

export class WorkTracker {
  private readonly active = new Map<string, number>();
  private readonly listeners = new Set<Listener>();

  /** Marks `kind` as running until the returned function is called. */
  begin(kind: string): () => void {
    this.active.set(kind, (this.active.get(kind) ?? 0) + 1);
    this.notify();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.active.get(kind) ?? 1) - 1;
      if (left <= 0) this.active.delete(kind);
      else this.active.set(kind, left);
      this.notify();
    };
  }

  isBusy = (): boolean => this.active.size > 0;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
