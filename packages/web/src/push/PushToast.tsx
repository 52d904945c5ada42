import { useEffect, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { t } from '../i18n/t';
import {
  PUSH_TOAST_MS,
  pushCid,
  pushNotifications as defaultNotifications,
  pushTarget,
  type PushNotifications,
} from './notifications';
import './push.css';

/** The cid of the chat open at `pathname` (`/app/chat/:type/:id`), if any. */
function routeCid(pathname: string): string | undefined {
  const m = /^\/app\/chat\/([^/]+)\/([^/]+)$/.exec(pathname);
  return m ? `${decodeURIComponent(m[1]!)}:${decodeURIComponent(m[2]!)}` : undefined;
}

/**
 * The push toast (product-spec §2): at the top, for 5000 ms, with Dismiss and View; View goes to the push's
 * route or opens its chat. A chat push is not shown while that chat is open (routed or in the popup,
 * `openCid`). A tapped push is opened at once.
 */
export function PushToast({
  openCid,
  notifications = defaultNotifications,
}: {
  openCid?: string | undefined;
  notifications?: PushNotifications;
}) {
  const shown = useSyncExternalStore(notifications.subscribe, notifications.getShown);
  const tapped = useSyncExternalStore(notifications.subscribe, notifications.getTapped);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const cid = shown ? pushCid(shown.data) : undefined;
  const hidden = cid !== undefined && (cid === openCid || cid === routeCid(pathname));

  useEffect(() => {
    if (!shown) return;
    if (hidden) {
      notifications.dismiss(shown.id);
      return;
    }
    const timer = setTimeout(() => notifications.dismiss(shown.id), PUSH_TOAST_MS);
    return () => clearTimeout(timer);
  }, [shown, hidden, notifications]);

  useEffect(() => {
    if (!tapped) return;
    notifications.dismiss(tapped.id);
    const target = pushTarget(tapped.data);
    if (target) void navigate(target);
  }, [tapped, notifications, navigate]);

  if (!shown || hidden) return null;
  const target = pushTarget(shown.data);
  return (
    <div className="push-toasts" aria-live="polite">
      <div className="push-toast" role="status">
        <div className="push-toast-text">
          <strong>{shown.data.title || t('push.title')}</strong>
          {shown.data.body ? <span>{shown.data.body}</span> : null}
        </div>
        <div className="push-toast-actions">
          <button type="button" className="button" onClick={() => notifications.dismiss(shown.id)}>
            {t('push.dismiss')}
          </button>
          {target ? (
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                notifications.dismiss(shown.id);
                void navigate(target);
              }}
            >
              {t('push.view')}
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
