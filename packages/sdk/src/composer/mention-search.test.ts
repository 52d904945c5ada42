import { beforeAll, describe, expect, it } from 'vitest';
import {
  activeTrigger,
  loadTransliteration,
  mentionScore,
  normalizeForSearch,
  searchUsers,
} from './mention-search.js';

describe('mention search', () => {
  beforeAll(() => loadTransliteration());

  const users = [
    { id: 'amy', name: 'Amy Pond' },
    { id: 'zoe', name: 'Zoë Ørsted' },
    { id: 'bob', name: 'Bob Marley' },
    { id: 'x1', name: 'Xavier' },
  ];

  it('is case-insensitive and transliterated', () => {
    expect(normalizeForSearch('ZOË Ørsted')).toBe('zoe orsted');
    expect(searchUsers(users, 'ZOE', undefined).map((u) => u.id)).toEqual(['zoe']);
  });

  it('matches id or name (any word), excludes self, best first then by name', () => {
    expect(searchUsers(users, 'pond', 'bob').map((u) => u.id)).toEqual(['amy']);
    expect(searchUsers(users, 'x1', undefined).map((u) => u.id)).toEqual(['x1']);
    expect(searchUsers(users, '', 'amy').map((u) => u.id)).toEqual(['bob', 'x1', 'zoe']);
  });

  it('fuzzy: edit distance at most 3 and below the query length; single characters are not fuzzy', () => {
    expect(mentionScore({ id: 'bob', name: 'Bob Marley' }, 'Mraley')).toBe(4);
    expect(mentionScore({ id: 'bob', name: 'Bob Marley' }, 'q')).toBeUndefined();
    expect(mentionScore({ id: 'bob', name: 'Bob Marley' }, 'zzzzzzz')).toBeUndefined();
  });

  it('finds the @ or / being typed', () => {
    expect(activeTrigger('hi @bo')).toEqual({ trigger: '@', query: 'bo', start: 3 });
    expect(activeTrigger('mail a@b')).toBeUndefined();
    expect(activeTrigger('/gi')).toEqual({ trigger: '/', query: 'gi', start: 0 });
    expect(activeTrigger('hi @bob there')).toBeUndefined();
  });
});
