import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHAT_ENDPOINTS } from '@caseroom/protocol';
import { renderChatApiDoc } from './api-doc.js';

const docPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../docs/chat-api.md');

describe('docs/chat-api.md', () => {
  it('is up to date with the protocol schemas (run `npm run docs:chat-api`)', () => {
    expect(fs.readFileSync(docPath, 'utf8')).toBe(renderChatApiDoc());
  });

  it('lists every endpoint and event', () => {
    const doc = renderChatApiDoc();
    for (const e of CHAT_ENDPOINTS) expect(doc).toContain(`### ${e.method} ${e.path}`);
    for (const t of ['message.new', 'thread.updated', 'user.presence.changed', 'notification.invited']) {
      expect(doc).toContain(t);
    }
  });
});
