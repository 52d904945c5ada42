import { t } from '../i18n/t';
import type { ChannelListHandle } from './sdkTypes';

type ListState = ReturnType<ChannelListHandle['state']['getSnapshot']>;

/**
 * What a channel list shows before it has channels: its error with a retry, or "loading" / "empty".
 * Null once there are channels to show.
 */
export function ChannelListStatus(props: {
  list: ChannelListHandle;
  state: ListState;
  texts: { error: string; empty: string; loading: string };
  /** Classes of the error box and of the loading/empty line. */
  classNames?: { error?: string; message?: string };
}) {
  const { list, state, texts, classNames = {} } = props;
  if (state.status === 'error') {
    return (
      <div className={classNames.error} role="alert">
        <span>{texts.error}</span>{' '}
        <button
          type="button"
          className="button button-small"
          onClick={() => void list.load().catch(() => undefined)}
        >
          {t('app.retry')}
        </button>
      </div>
    );
  }
  if (state.channels.length > 0) return null;
  return (
    <p className={`${classNames.message ?? ''} muted`.trim()} role="status">
      {state.status === 'ready' ? texts.empty : texts.loading}
    </p>
  );
}
