import { t } from '../../i18n/t';

/** The empty-channel placeholder (chat-spec §2): a skeleton while loading, an invitation once empty. */
export function ListPlaceholder({ loading, mode }: { loading: boolean; mode: 'main' | 'thread' }) {
  if (loading) {
    return (
      <div className="list-skeleton" role="status" aria-label={t('chat.channel.loading')}>
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className={`skeleton-row${i % 2 ? ' skeleton-own' : ''}`} aria-hidden="true">
            <span className="skeleton-avatar" />
            <span className="skeleton-lines">
              <span className="skeleton-line" />
              <span className="skeleton-line skeleton-line-short" />
            </span>
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="list-empty" role="status">
      <p>{mode === 'main' ? t('chat.channel.empty') : t('chat.thread.empty')}</p>
    </div>
  );
}

/** The loading indicator at the top or bottom of the list while a page loads. */
export function LoadingRow({ label }: { label: string }) {
  return (
    <div className="list-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
