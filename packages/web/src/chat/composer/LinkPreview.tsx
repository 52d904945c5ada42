import type { LinkPreview as LinkPreviewState } from '@caseroom/sdk';
import { t } from '../../i18n/t';
import { CloseIcon } from '../../ui/icons';
import type { ComposerHandle } from '../sdkTypes';
import { useStore } from '../useStore';

/**
 * The link previews of the text being written (chat-spec §4), above the input: loading, then the card; failed
 * ones are not shown (§4: failed enrichment is silent) and dismissed ones are gone. Each has a dismiss button.
 */
export function LinkPreviews({ composer }: { composer: ComposerHandle }) {
  const { previews } = useStore(composer.linkPreviews.state);
  const shown = previews.filter((p) => p.status === 'loading' || p.status === 'loaded');
  if (shown.length === 0) return null;
  return (
    <ul className="link-previews" aria-label={t('chat.linkPreview.list')}>
      {shown.map((p) => (
        <PreviewItem
          key={p.og_scrape_url}
          preview={p}
          onDismiss={() => composer.linkPreviews.dismiss(p.og_scrape_url)}
        />
      ))}
    </ul>
  );
}

function PreviewItem({ preview, onDismiss }: { preview: LinkPreviewState; onDismiss: () => void }) {
  const og = preview.preview;
  const loading = preview.status === 'loading';
  return (
    <li className="link-preview" aria-busy={loading}>
      <div className="link-preview-body">
        {loading || !og ? (
          <p className="link-preview-loading muted">{t('chat.linkPreview.loading')}</p>
        ) : (
          <>
            <p className="link-card-site">{og.author_name ?? new URL(preview.og_scrape_url).hostname}</p>
            <p className="link-card-title">{og.title ?? preview.og_scrape_url}</p>
            {og.text ? <p className="link-card-text">{og.text}</p> : null}
          </>
        )}
      </div>
      <button
        type="button"
        className="icon-button icon-button-small"
        aria-label={t('chat.linkPreview.dismiss', { url: preview.og_scrape_url })}
        onClick={onDismiss}
      >
        <CloseIcon />
      </button>
    </li>
  );
}
