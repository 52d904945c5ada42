import { describe, expect, it } from 'vitest';
import { CHAT_ENDPOINTS } from './chat/api.js';
import { CustomEvent, ServerEvent } from './chat/events.js';
import { Channel, ChatUser, Message } from './chat/models.js';
import { strictSchema } from './strict.js';

const user = { id: 'ann', name: 'Ann' };
const message = {
  id: 'm1',
  cid: 'messaging:a',
  text: 'hi',
  type: 'regular',
  user,
  mentioned_users: [],
  attachments: [],
  silent: false,
  pinned: false,
  reply_count: 0,
  reaction_counts: {},
  reaction_scores: {},
  reaction_groups: {},
  latest_reactions: [],
  own_reactions: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('strictSchema', () => {
  it('refuses a key a plain object does not declare, at any depth, which the schema itself lets through', () => {
    const event = { type: 'message.new', cid: 'messaging:a', message, created_at: message.created_at };
    expect(strictSchema(ServerEvent).safeParse(event).success).toBe(true);
    expect(ServerEvent.safeParse({ ...event, position: 4 }).success).toBe(true);
    expect(strictSchema(ServerEvent).safeParse({ ...event, position: 4 }).success).toBe(false);
    const nested = { ...event, message: { ...message, latest_reactions: [{ extra: 1 }] } };
    expect(strictSchema(ServerEvent).safeParse(nested).success).toBe(false);
  });

  it('lets custom data through objects that carry it only when the caller names the key custom', () => {
    const custom = { ...message, color: 'red' };
    expect(Message.safeParse(custom).success).toBe(true);
    expect(strictSchema(Message).safeParse(custom).success).toBe(false);
    const options = { customKey: (k: string) => k === 'color' };
    expect(strictSchema(Message, options).safeParse(custom).success).toBe(true);
    expect(strictSchema(ChatUser, options).safeParse({ ...user, colour: 'red' }).success).toBe(false);
    // A declared key is checked by its schema even where custom data is allowed.
    expect(strictSchema(Message, options).safeParse({ ...message, pinned: 'yes' }).success).toBe(false);
  });

  it('keeps refinements: a custom event may not take a server namespace', () => {
    const ok = { type: 'case.note', created_at: message.created_at, anything: 1 };
    const options = { customKey: (k: string) => k === 'anything' };
    expect(strictSchema(CustomEvent, options).safeParse(ok).success).toBe(true);
    const spoof = { ...ok, type: 'capabilities.changed' };
    expect(strictSchema(CustomEvent, options).safeParse(spoof).success).toBe(false);
  });

  it('copies every response schema of the endpoint table', () => {
    for (const endpoint of CHAT_ENDPOINTS) if (endpoint.response) strictSchema(endpoint.response);
    expect(strictSchema(Channel)).toBe(strictSchema(Channel));
  });
});
