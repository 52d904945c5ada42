import fs from 'node:fs/promises';
import { CHAT_ENDPOINTS, ChatEvent } from '@caseroom/protocol';
import { describe, expect, it } from 'vitest';
import {
  CHAT_ENDPOINT_RULES,
  CHAT_EVENT_AUDIENCE,
  CHAT_POSITION_HEADERS,
  CHAT_POSITION_LABELS,
  CHAT_POSITIONS,
  READERS,
} from './matrix.js';
import { CHAT_DOC_BEGIN, CHAT_DOC_END, renderChatPermissions } from './matrix-doc.js';

/** Every `type` the protocol's `ChatEvent` union declares. */
function eventTypes(): string[] {
  return ChatEvent.options.flatMap((option) => {
    const t = option.shape.type as unknown as { options?: string[]; value?: string };
    return t.options ?? (t.value ? [t.value] : []);
  });
}

describe('the chat authorization matrix', () => {
  it('has a row for every chat endpoint and every event type, and nothing else', () => {
    expect(Object.keys(CHAT_ENDPOINT_RULES).sort()).toEqual(
      CHAT_ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort(),
    );
    expect(Object.keys(CHAT_EVENT_AUDIENCE).sort()).toEqual(eventTypes().sort());
    for (const p of CHAT_POSITIONS) {
      expect(CHAT_POSITION_LABELS[p]).toBeTruthy();
      expect(CHAT_POSITION_HEADERS[p]).toBeTruthy();
    }
  });

  it('lets nobody but readers see the channel’s data in a call about themselves', () => {
    for (const [endpoint, rule] of Object.entries(CHAT_ENDPOINT_RULES)) {
      for (const p of rule.sees ?? []) expect(READERS, `${endpoint} ${p}`).toContain(p);
      for (const p of rule.allow) {
        // A channel call (`{type}/{id}` or a message of it) is for readers only.
        if (/\{type\}\/\{id\}|messages\/\{id\}|\/members$/.test(endpoint)) {
          expect(READERS, `${endpoint} ${p}`).toContain(p);
        }
      }
    }
  });

  it('is what docs/permissions.md shows', async () => {
    const doc = await fs.readFile(new URL('../../../../../docs/permissions.md', import.meta.url), 'utf8');
    const begin = doc.indexOf(CHAT_DOC_BEGIN);
    const end = doc.indexOf(CHAT_DOC_END);
    expect(begin).toBeGreaterThan(0);
    expect(doc.slice(begin + CHAT_DOC_BEGIN.length, end).trim()).toBe(renderChatPermissions());
  });
});
