import { CHAT_LIMITS, type ChannelConfig } from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';
import { inputError, notFound } from '../errors.js';
import type { ChannelRow } from '../store/rows.js';
import { getChannelType } from '../store/policy.js';
import { typeSettings } from './capabilities.js';

/**
 * Commands the server knows. Empty until custom commands (`/chat/commands`) arrive; a type's `commands: ["all"]`
 * (the default) means every command listed here.
 */
const REGISTERED_COMMANDS: ReadonlyArray<{ name: string; args?: string; description?: string }> = [];

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

/** 404 (code 16) unless the channel type exists. */
export async function requireChannelType(q: Queryable, type: string): Promise<void> {
  if (!(await getChannelType(q, type))) throw notFound(`channel type "${type}" does not exist`);
}

/** The `config` a channel presents: its type's settings, commands resolved. */
export function presentConfig(channel: Pick<ChannelRow, 'type' | 'config'>): ChannelConfig {
  const settings = typeSettings(channel);
  const commands = settings.commands.includes('all')
    ? [...REGISTERED_COMMANDS]
    : REGISTERED_COMMANDS.filter((c) => settings.commands.includes(c.name));
  return { name: channel.type, ...settings, commands };
}
