import type { SocketConnection } from '../transport/socket-connection.js';

/** Browser online/offline events speed up reconnection; absent outside browsers. */
export function hookBrowserNetwork(socket: SocketConnection): (() => void) | undefined {
  const target = globalThis as {
    addEventListener?: (t: string, l: () => void) => void;
    removeEventListener?: (t: string, l: () => void) => void;
    navigator?: unknown;
    document?: unknown;
  };
  if (typeof target.addEventListener !== 'function' || typeof target.document === 'undefined')
    return undefined;
  const online = () => socket.reconnectNow();
  const offline = () => socket.markUnhealthy('browser went offline');
  target.addEventListener('online', online);
  target.addEventListener('offline', offline);
  return () => {
    target.removeEventListener?.('online', online);
    target.removeEventListener?.('offline', offline);
  };
}
