import { CHAT_LIMITS, customDataProblem } from '@caseroom/protocol';
import { inputError } from '../errors.js';
import { RESERVED_CHANNEL_FIELDS } from '../presenters/channel.js';

/** The custom part of channel data: everything but the column-backed fields. */
export function customOf(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([k]) => !RESERVED_CHANNEL_FIELDS.has(k)));
}

/** Largest custom data of each kind, in bytes of JSON (CHAT_LIMITS; documented in docs/chat-api.md). */
const CUSTOM_LIMITS = {
  message: CHAT_LIMITS.maxMessageCustomBytes,
  user: CHAT_LIMITS.maxUserCustomBytes,
  channel: CHAT_LIMITS.maxChannelCustomBytes,
  reaction: CHAT_LIMITS.maxReactionCustomBytes,
  thread: CHAT_LIMITS.maxThreadCustomBytes,
} as const;

/**
 * Code 4 when custom data as it would be stored is over its limit, whoever writes it (users, guests, the server
 * and the server-side API): every write of custom data calls this with the result it is about to store.
 */
export function checkCustomSize(what: keyof typeof CUSTOM_LIMITS, custom: Record<string, unknown>): void {
  const problem = customDataProblem(what, custom, CUSTOM_LIMITS[what]);
  if (problem) throw inputError(problem);
}

/** Custom data after a partial update: the stored data, the set fields over it, the unset ones removed. */
export function mergedCustom(
  stored: Record<string, unknown> | null | undefined,
  set: Record<string, unknown>,
  unset: readonly string[],
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored, ...set };
  for (const key of unset) delete merged[key];
  return merged;
}
