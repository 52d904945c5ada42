import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/** The navigation state a search result opens a channel with: the message to jump to. */
export interface JumpRequest {
  jumpTo: string;
}

function jumpTarget(state: unknown): string | undefined {
  const value = (state as Partial<JumpRequest> | null)?.jumpTo;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Runs `jump` once for a navigation that carries `{ jumpTo: messageId }` (a search result across channels), as
 * soon as the channel is `ready` (its first page loaded, so the jump's page is not replaced by it).
 */
export function useJumpRequest(ready: boolean, jump: (messageId: string) => void): void {
  const location = useLocation();
  const handled = useRef<string | undefined>(undefined);
  const target = jumpTarget(location.state);
  useEffect(() => {
    if (!ready || !target || handled.current === location.key) return;
    handled.current = location.key;
    jump(target);
  }, [ready, target, location.key, jump]);
}
