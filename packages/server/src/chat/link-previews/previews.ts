import type { OgResponse } from '@caseroom/protocol';
import type { HttpOut } from '../../platform/http-out/index.js';
import type { Logger } from '../../platform/logger.js';
import { PreviewError, scrapePreview } from './scrape.js';

/** A preview is reused for this long (docs/decisions.md "Link previews"). */
export const PREVIEW_TTL_MS = 10 * 60 * 1000;
/** A page that had no preview is not asked again for this long. */
export const FAILURE_TTL_MS = 60 * 1000;
const MAX_ENTRIES = 1000;

type Entry = { at: number; value: OgResponse } | { at: number; error: PreviewError };

/**
 * Link previews with a small in-memory cache per node: a page previewed by the composer (`GET /chat/og`) and
 * then enriched on send is fetched once; a page that failed is not fetched again for a minute. Concurrent asks for
 * one URL share one fetch.
 */
export class LinkPreviews {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<OgResponse>>();
  clock: () => number = () => Date.now();

  constructor(
    readonly httpOut: HttpOut,
    private readonly log: Logger,
  ) {}

  /** The preview of a page (a URL already checked for domain form), or a {@link PreviewError}. */
  async preview(url: string): Promise<OgResponse> {
    const now = this.clock();
    const hit = this.cache.get(url);
    if (hit && now - hit.at < ('value' in hit ? PREVIEW_TTL_MS : FAILURE_TTL_MS)) {
      if ('value' in hit) return hit.value;
      throw hit.error;
    }
    let running = this.inFlight.get(url);
    if (!running) {
      running = this.fetch(url).finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, running);
    }
    return running;
  }

  private async fetch(url: string): Promise<OgResponse> {
    try {
      const value = await scrapePreview(this.httpOut, url);
      this.remember(url, { at: this.clock(), value });
      return value;
    } catch (err) {
      const error =
        err instanceof PreviewError ? err : new PreviewError('the link has no preview', String(err));
      this.log.info({ reason: error.detail ?? error.message }, 'link preview failed');
      this.remember(url, { at: this.clock(), error });
      throw error;
    }
  }

  private remember(url: string, entry: Entry): void {
    this.cache.delete(url);
    this.cache.set(url, entry);
    if (this.cache.size > MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }

  /** Forgets every cached preview (tests). */
  clear(): void {
    this.cache.clear();
  }

  close(): Promise<void> {
    return this.httpOut.close();
  }
}
