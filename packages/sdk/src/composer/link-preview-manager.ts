import { find } from 'linkifyjs';
import { ATTACHMENT_CONSTANTS, linkPreviewUrl, type OgResponse } from '@caseroom/protocol';
import { StateStore, type Store } from '../stores/store.js';
import { Debounce } from '../timing/debounce.js';

/** chat-spec §4 Link preview: found (pending), fetching (loading), loaded, failed, dismissed by the user. */
export type LinkPreviewStatus = 'pending' | 'loading' | 'loaded' | 'failed' | 'dismissed';

export interface LinkPreview {
  /** The link as found in the text, normalised (the preview's `og_scrape_url`). */
  og_scrape_url: string;
  status: LinkPreviewStatus;
  /** The server's preview once loaded. */
  preview?: OgResponse;
}

export interface LinkPreviewsSnapshot {
  /** The composer text's links, in order of appearance. */
  previews: readonly LinkPreview[];
}

export interface LinkPreviewManagerOptions {
  /** `GET /chat/og` (the client's `enrichURL`). */
  enrich(url: string): Promise<OgResponse>;
  /** Previews are made only when the channel's `url_enrichment` is on and the user has `send-links` (§6). */
  enabled(): boolean;
  debounceMs?: number;
}

/** The links of a composer text that may have a preview (linkifyjs; a hostname of valid domain form, §5). */
export function previewableLinks(text: string): string[] {
  const urls: string[] = [];
  for (const link of find(text, 'url')) {
    const url = linkPreviewUrl(link.href);
    if (url && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

/**
 * Link previews of the message composer (chat-spec §3, §4, §9): the text's links become `pending` as they are
 * typed; 1,500 ms after the typing stops each is fetched (`loading`) and ends `loaded` or `failed` (failed ones
 * are not shown). A preview the user dismissed is not fetched again while its link stays in the text. On send,
 * loaded previews go as attachments with `og_scrape_url`, and `skip_enrich_url` tells the server not to add one
 * when the user dismissed them.
 */
export class LinkPreviewManager {
  private readonly store = new StateStore<LinkPreviewsSnapshot>({ previews: [] });
  private readonly debounce: Debounce<[]>;

  constructor(private readonly options: LinkPreviewManagerOptions) {
    this.debounce = new Debounce(
      () => this.fetchPending(),
      options.debounceMs ?? ATTACHMENT_CONSTANTS.linkPreviewDebounceMs,
    );
  }

  get state(): Store<LinkPreviewsSnapshot> {
    return this.store;
  }

  /** The composer text changed: links found are kept (with their state), new ones wait, gone ones are dropped. */
  setText(text: string): void {
    if (!this.options.enabled()) {
      this.clear();
      return;
    }
    const current = new Map(this.store.getSnapshot().previews.map((p) => [p.og_scrape_url, p]));
    const previews = previewableLinks(text).map(
      (url): LinkPreview => current.get(url) ?? { og_scrape_url: url, status: 'pending' },
    );
    if (!sameList(previews, this.store.getSnapshot().previews)) this.store.set({ previews });
    if (previews.some((p) => p.status === 'pending')) this.debounce.call();
    else this.debounce.cancel();
  }

  /** The user closed a preview: it stays dismissed (not fetched again) while its link is in the text. */
  dismiss(url: string): void {
    this.update(url, { status: 'dismissed', preview: undefined });
  }

  /**
   * What a send carries: loaded previews as attachments, and `skip_enrich_url` when the user dismissed a preview
   * and none is sent (so the server does not add one back).
   */
  forSend(): { attachments: OgResponse[]; skip_enrich_url?: true } {
    const previews = this.store.getSnapshot().previews;
    const attachments = previews.flatMap((p) => (p.status === 'loaded' && p.preview ? [p.preview] : []));
    const dismissed = previews.some((p) => p.status === 'dismissed');
    return { attachments, ...(dismissed && attachments.length === 0 ? { skip_enrich_url: true } : {}) };
  }

  /** Forgets every preview (after a send, on leaving the channel). */
  clear(): void {
    this.debounce.cancel();
    if (this.store.getSnapshot().previews.length > 0) this.store.set({ previews: [] });
  }

  dispose(): void {
    this.debounce.cancel();
  }

  private fetchPending(): void {
    for (const p of this.store.getSnapshot().previews) {
      if (p.status !== 'pending') continue;
      const url = p.og_scrape_url;
      this.update(url, { status: 'loading' });
      this.options.enrich(url).then(
        (preview) => this.settle(url, { status: 'loaded', preview }),
        () => this.settle(url, { status: 'failed' }),
      );
    }
  }

  /** An answer counts only while its link is still in the text and still loading (not dismissed meanwhile). */
  private settle(url: string, patch: Partial<LinkPreview>): void {
    const now = this.store.getSnapshot().previews.find((p) => p.og_scrape_url === url);
    if (now?.status === 'loading') this.update(url, patch);
  }

  private update(url: string, patch: Partial<LinkPreview>): void {
    const previews = this.store.getSnapshot().previews;
    if (!previews.some((p) => p.og_scrape_url === url)) return;
    this.store.set({
      previews: previews.map((p) => {
        if (p.og_scrape_url !== url) return p;
        const next: LinkPreview = { ...p, ...patch };
        if (next.preview === undefined) delete next.preview;
        return next;
      }),
    });
  }
}

function sameList(a: readonly LinkPreview[], b: readonly LinkPreview[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}
