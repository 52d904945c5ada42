import { CHAT_TIMING } from '@caseroom/protocol';

/**
 * Delay before reconnect attempt `attempt` (1-based): random between half and all of a ceiling that
 * doubles from 500 ms up to 25 s (chat-spec §9), so a fleet of clients does not reconnect in lockstep.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CHAT_TIMING.reconnectBackoffMaxMs, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
