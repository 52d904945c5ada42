import type { ChatChannel } from '@caseroom/sdk';

/**
 * The watch of the addressed channel that the first chat connection starts as soon as it is connected (see
 * ChatProvider), before the chat view renders; the view's first watch of that channel takes it instead of asking
 * again, as the answer may already be in.
 */
let early: { channel: ChatChannel; watched: Promise<unknown> } | undefined;

export function setEarlyWatch(channel: ChatChannel, watched: Promise<unknown>): void {
  early = { channel, watched };
}

/** The early watch of `channel`, once; `undefined` for any other channel or a second time. */
export function takeEarlyWatch(channel: ChatChannel): Promise<unknown> | undefined {
  const taken = early;
  early = undefined;
  return taken?.channel === channel ? taken.watched : undefined;
}
