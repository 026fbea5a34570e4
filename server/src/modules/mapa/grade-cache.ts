// What the supervisor map's server-side clusters remember (issue 41), per process: each tile and each project's
// summary under its key (project, filters, mode, zoom, tile) with the project version it was computed at. An entry
// of an older version is never served; the newest entries stay, the least recently used go past the budget.
import type { GradeTile } from '@novus/domain/api/mapa';

/** What one process keeps: ≈ 64 MB of tiles, whatever the number of projects. */
const BUDGET_BYTES = 64 * 1024 * 1024;

interface Entry<T> {
  versao: string;
  value: T;
  bytes: number;
}

export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;

  constructor(
    private readonly sizeOf: (value: T) => number,
    private readonly budget = BUDGET_BYTES,
  ) {}

  /** The value of `key` computed at `versao`, or undefined. */
  get(key: string, versao: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.versao !== versao) return undefined;
    // the Map keeps insertion order: re-inserting makes it the most recently used
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, versao: string, value: T): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    const bytes = this.sizeOf(value);
    this.entries.set(key, { versao, value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A tile's weight: its numbers as JSON text, about 9 bytes each, and its ids. */
export function tileBytes(tile: GradeTile): number {
  return 64 + 9 * (tile.clusters.length + tile.pontos.length) + tile.ids.length;
}
