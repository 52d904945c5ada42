import { z } from 'zod';
import { ChannelState, Message } from './models.js';
import { ServerEvent } from './events.js';
import { SyncCursor } from './requests.js';

export const QueryChannelResponse = ChannelState.extend({ duration: z.string().optional() });
export type QueryChannelResponse = z.infer<typeof QueryChannelResponse>;

export const QueryChannelsResponse = z.object({
  channels: z.array(ChannelState),
  duration: z.string().optional(),
});
export type QueryChannelsResponse = z.infer<typeof QueryChannelsResponse>;

export const SendMessageResponse = z.object({ message: Message, duration: z.string().optional() });
export type SendMessageResponse = z.infer<typeof SendMessageResponse>;

export const SyncResponse = z.object({
  events: z.array(ServerEvent),
  /** True when the answer stopped at its cap: sync again from `cursor`. */
  more: z.boolean().optional(),
  /** Where the answer ends: send it back to continue (channels the user may not read are left out). */
  cursor: SyncCursor.optional(),
  duration: z.string().optional(),
});
export type SyncResponse = z.infer<typeof SyncResponse>;
