import { RESERVED_CHANNEL_FIELDS } from '../presenters/channel.js';

/** The custom part of channel data: everything but the column-backed fields. */
export function customOf(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([k]) => !RESERVED_CHANNEL_FIELDS.has(k)));
}
