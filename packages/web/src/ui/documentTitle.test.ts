import { describe, expect, it } from 'vitest';
import { documentTitle } from './documentTitle';

describe('documentTitle', () => {
  it('names the screen, then the product', () => {
    expect(documentTitle('Chats', 0)).toBe('Chats · Caseroom');
    expect(documentTitle(undefined, 0)).toBe('Caseroom');
  });

  it('puts the unread count in front while there is one', () => {
    expect(documentTitle('Chats', 3)).toBe('(3) Chats · Caseroom');
    expect(documentTitle(undefined, 12)).toBe('(12) Caseroom');
    expect(documentTitle('Chats', -1)).toBe('Chats · Caseroom');
  });
});
