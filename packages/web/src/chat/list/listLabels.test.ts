// @vitest-environment jsdom
import { readByNames } from '@caseroom/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n/t';
import { typingText } from './listLabels';

describe('read-by and typing wording', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('names at most 5 readers, then +N', () => {
    const users = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((name) => ({ id: name, name }));
    expect(readByNames(users)).toEqual({ names: ['A', 'B', 'C', 'D', 'E'], rest: 2 });
  });

  it('words the typing line with the plural rules of the language', async () => {
    expect(typingText([])).toBe('');
    expect(typingText(['Ann'])).toBe('Ann is typing…');
    expect(typingText(['Ann', 'Bob'])).toBe('Ann and Bob are typing…');
    expect(typingText(['Ann', 'Bob', 'Cy'])).toBe('Ann and 2 others are typing…');
    await setLanguage('nb');
    expect(typingText(['Ann'])).toBe('Ann skriver…');
    expect(typingText(['Ann', 'Bob'])).toBe('Ann og Bob skriver…');
    expect(typingText(['Ann', 'Bob', 'Cy'])).toBe('Ann og 2 andre skriver…');
  });
});
