import { CHAT_TIMING } from '@caseroom/protocol';
import { StateStore, type Store } from '../stores/store.js';
import { Debounce } from '../timing/debounce.js';
import { toChatApiError } from '../transport/errors.js';

/** chat-spec §9: query sources page by 10. */
export const SEARCH_PAGE_SIZE = 10;

/** One kind of result: fetches a page for a query. */
export interface SearchSource<T = unknown> {
  readonly type: string;
  fetch(query: string, page: { offset: number; limit: number }): Promise<T[]>;
}

/** One source's state (chat-spec §4: pagination with hasNext, isLoading, isActive). */
export interface SearchSourceState<T = unknown> {
  items: readonly T[];
  hasNext: boolean;
  isLoading: boolean;
  /** Inactive sources are skipped by searches. */
  isActive: boolean;
  error?: string;
}

export interface SearchSnapshot {
  query: string;
  sources: Readonly<Record<string, SearchSourceState>>;
}

/**
 * Search over several sources (messages, channels, users, members): `search(text)` runs 300 ms
 * after the last keystroke on every active source; `loadMore(type)` pages one source. Answers to
 * an older query are dropped.
 */
export class SearchController {
  private readonly store: StateStore<SearchSnapshot>;
  private readonly debounce: Debounce<[string]>;
  private readonly sources: Map<string, SearchSource>;
  private readonly generation = new Map<string, number>();

  constructor(sources: readonly SearchSource[], options: { debounceMs?: number; pageSize?: number } = {}) {
    this.sources = new Map(sources.map((s) => [s.type, s]));
    this.pageSize = options.pageSize ?? SEARCH_PAGE_SIZE;
    this.store = new StateStore<SearchSnapshot>({
      query: '',
      sources: Object.fromEntries(
        sources.map((s) => [s.type, { items: [], hasNext: false, isLoading: false, isActive: true }]),
      ),
    });
    this.debounce = new Debounce(
      (query: string) => this.runAll(query),
      options.debounceMs ?? CHAT_TIMING.searchDebounceMs,
    );
  }

  private readonly pageSize: number;

  get state(): Store<SearchSnapshot> {
    return this.store;
  }

  /** Searches every active source 300 ms after the last call; an empty text clears the results. */
  search(query: string): void {
    this.store.patch({ query });
    if (query.trim() === '') {
      this.debounce.cancel();
      this.clearResults();
      return;
    }
    for (const type of this.sources.keys())
      if (this.source(type).isActive) this.patchSource(type, { isLoading: true });
    this.debounce.call(query);
  }

  /** The next page of one source. */
  async loadMore(type: string): Promise<void> {
    const state = this.source(type);
    if (!state.hasNext || state.isLoading || !state.isActive) return;
    await this.fetch(type, this.store.getSnapshot().query, state.items.length);
  }

  activate(type: string): void {
    this.patchSource(type, { isActive: true });
    const query = this.store.getSnapshot().query;
    if (query.trim() !== '' && this.source(type).items.length === 0) void this.fetch(type, query, 0);
  }

  deactivate(type: string): void {
    this.bump(type);
    this.patchSource(type, { isActive: false, isLoading: false });
  }

  /** Back to nothing searched. */
  clear(): void {
    this.debounce.cancel();
    this.store.patch({ query: '' });
    this.clearResults();
  }

  dispose(): void {
    this.debounce.cancel();
  }

  private runAll(query: string): void {
    for (const type of this.sources.keys()) if (this.source(type).isActive) void this.fetch(type, query, 0);
  }

  private async fetch(type: string, query: string, offset: number): Promise<void> {
    const source = this.sources.get(type);
    if (!source) throw new Error(`unknown search source ${type}`);
    const generation = offset === 0 ? this.bump(type) : (this.generation.get(type) ?? 0);
    this.patchSource(type, { isLoading: true, error: undefined });
    try {
      const page = await source.fetch(query, { offset, limit: this.pageSize });
      if (this.generation.get(type) !== generation || this.store.getSnapshot().query !== query) return;
      const items = offset === 0 ? page : [...this.source(type).items, ...page];
      this.patchSource(type, { items, hasNext: page.length >= this.pageSize, isLoading: false });
    } catch (error) {
      if (this.generation.get(type) !== generation) return;
      this.patchSource(type, { isLoading: false, error: toChatApiError(error).message });
    }
  }

  private bump(type: string): number {
    const next = (this.generation.get(type) ?? 0) + 1;
    this.generation.set(type, next);
    return next;
  }

  private clearResults(): void {
    for (const type of this.sources.keys()) {
      this.bump(type);
      this.patchSource(type, { items: [], hasNext: false, isLoading: false, error: undefined });
    }
  }

  private source(type: string): SearchSourceState {
    const state = this.store.getSnapshot().sources[type];
    if (!state) throw new Error(`unknown search source ${type}`);
    return state;
  }

  private patchSource(type: string, patch: Partial<SearchSourceState>): void {
    const snapshot = this.store.getSnapshot();
    this.store.set({
      ...snapshot,
      sources: { ...snapshot.sources, [type]: { ...this.source(type), ...patch } },
    });
  }
}
