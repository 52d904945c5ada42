import type { ChannelConfig } from '@caseroom/protocol';
import { notFound } from '../errors.js';

const base = {
  commands: [],
  url_enrichment: true,
  typing_events: true,
  read_events: true,
  replies: true,
  reactions: true,
  uploads: true,
  search: true,
  mutes: true,
  max_message_length: 5000,
};

/** Built-in channel types. Channel-type CRUD (issue 5) will move these into a table. */
const TYPES: Record<string, ChannelConfig> = {
  messaging: { name: 'messaging', ...base },
  team: { name: 'team', ...base },
};

export function channelConfig(type: string): ChannelConfig {
  const config = TYPES[type];
  if (!config) throw notFound(`channel type "${type}" does not exist`);
  return config;
}
