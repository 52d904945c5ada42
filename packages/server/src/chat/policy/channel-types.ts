import { CHAT_LIMITS, type ChannelConfig } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { inputError, notFound } from '../errors.js';
import type { ChannelRow } from '../store/rows.js';
import { getChannelType } from '../store/policy.js';
import { typeSettings } from './capabilities.js';

/** Checks the shape of a channel type and id (chat-spec §5 Channel and ids) without touching the database. */
export function checkRefShape(type: string, id: string | undefined): void {
  for (const [what, v] of [
    ['type', type],
    ['id', id],
  ] as const) {
    if (v === undefined) continue;
    if (v.length === 0 || v.length > CHAT_LIMITS.maxChannelIdLength || !/^[\w!-]+$/.test(v)) {
      throw inputError(
        `channel ${what} "${v}" may only contain letters, digits, "!", "-" and "_" (at most ${CHAT_LIMITS.maxChannelIdLength})`,
      );
    }
  }
}

/** The longest message text a channel accepts: its type's `max_message_length` (at most the global 5,000). */
export function maxMessageLength(channel: Pick<ChannelRow, 'config'>): number {
  return Math.min(typeSettings(channel).max_message_length, CHAT_LIMITS.maxMessageLength);
}

/** 404 (code 16) unless the channel type exists. */
export async function requireChannelType(q: Queryable, type: string): Promise<void> {
  if (!(await getChannelType(q, type))) throw notFound(`channel type "${type}" does not exist`);
}

/**
 * The `config` a channel presents: its type's settings, commands resolved against the registered commands
 * (`/chat/commands`, loaded with the channel row): `["all"]` (the default) lists every one of them.
 */
export function presentConfig(channel: Pick<ChannelRow, 'type' | 'config' | 'commands'>): ChannelConfig {
  const settings = typeSettings(channel);
  const registered = channel.commands ?? [];
  const commands = settings.commands.includes('all')
    ? [...registered]
    : registered.filter((c) => settings.commands.includes(c.name));
  return { name: channel.type, ...settings, commands };
}
