import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { literal } from './db.js';

describe('literal', () => {
  it('writes strings as pg.escapeLiteral does', () => {
    const samples = [
      '',
      'plain',
      "it's",
      "''",
      '\\',
      "a\\b'c",
      "\\'",
      `{"text":"o'clock \\"quoted\\" C:\\\\dir"}`,
      'ünïcødé 😀 \u0000-free\ttab\nline',
    ];
    // Random strings over the characters that matter.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 200; i++) {
      samples.push(Array.from({ length: next() % 12 }, () => 'ab\'\\" é'[next() % 7]).join(''));
    }
    for (const s of samples) expect(literal(s)).toBe(pg.escapeLiteral(s));
    expect(literal(["a'", 'b\\'])).toBe(
      `ARRAY[${pg.escapeLiteral("a'")}, ${pg.escapeLiteral('b\\')}]::text[]`,
    );
  });
});
