import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '@caseroom/protocol';
import {
  containsLink,
  isComposerTextEmpty,
  keepMentions,
  sendBlockReason,
  trimComposerText,
} from './text.js';

const all = [...CAPABILITIES];

describe('composer text rules', () => {
  it('trims leading and trailing newlines, keeps inner ones; whitespace-only is empty', () => {
    expect(trimComposerText('\n\nhello\n  world\n\n')).toBe('hello\n  world');
    expect(trimComposerText('  \n \n ')).toBe('');
  });

  it('treats markdown scaffolding as empty', () => {
    for (const text of ['', '   ', '>', '> ', '**', '____', '```\n```', '```js\n\n```', '> **', '`']) {
      expect(isComposerTextEmpty(text), JSON.stringify(text)).toBe(true);
    }
    for (const text of ['a', '> quote', '**bold**', '```\ncode\n```']) {
      expect(isComposerTextEmpty(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('detects links, not file names', () => {
    expect(containsLink('see https://x.org/a')).toBe(true);
    expect(containsLink('www.example.com')).toBe(true);
    expect(containsLink('go to example.com/page')).toBe(true);
    expect(containsLink('attached notes.txt e.g. this')).toBe(false);
  });

  it('keeps mentions only while the text holds @name or @id', () => {
    const users = [
      { id: 'bob', name: 'Bob Stone' },
      { id: 'cat', name: 'Cat' },
    ];
    expect(keepMentions('hi @Bob Stone and @cat', users)).toEqual(users);
    expect(keepMentions('hi Bob Stone and Cat', users)).toEqual([]);
    expect(keepMentions('hi @bob', users)).toEqual([users[0]]);
  });

  it('gives the reason a send is blocked', () => {
    expect(sendBlockReason({ text: 'hi', capabilities: all })).toBeUndefined();
    expect(sendBlockReason({ text: '\n**\n', capabilities: all })).toBe('empty');
    expect(sendBlockReason({ text: '', attachmentCount: 1, capabilities: all })).toBeUndefined();
    expect(sendBlockReason({ text: 'hi', capabilities: [] })).toBe('no-permission');
    expect(sendBlockReason({ text: 'hi', capabilities: [], editing: true })).toBeUndefined();
    expect(sendBlockReason({ text: 'hi', reply: true, capabilities: ['send-message'] })).toBe(
      'no-permission',
    );
    expect(sendBlockReason({ text: 'hi', uploadsPending: true, capabilities: all })).toBe('uploads-pending');
    expect(sendBlockReason({ text: 'hi', attachmentCount: 31, capabilities: all })).toBe(
      'too-many-attachments',
    );
    expect(sendBlockReason({ text: 'x'.repeat(5001), capabilities: all })).toBe('too-long');
    const noSkip = all.filter((c) => c !== 'skip-slow-mode');
    expect(sendBlockReason({ text: 'hi', cooldownRemaining: 3, capabilities: noSkip })).toBe('cooldown');
    const noLinks = all.filter((c) => c !== 'send-links');
    expect(sendBlockReason({ text: 'see https://x.org', capabilities: noLinks })).toBe('links-not-allowed');
  });
});
