import { isSafeText } from '@caseroom/protocol';
import { inputError } from '../errors.js';

/**
 * Keyset cursors for search (`next`): the sort keys of the last row of a page, read back as text from PostgreSQL (so
 * timestamps keep their microseconds and ranks their exact value) and compared with a row-wise condition, so a
 * page costs the same however deep it is and rows written meanwhile do not shift the pages.
 */
export interface SortKey {
  /** SQL expression of the key (over alias `m`). */
  sql: string;
  /** How the text form is read back. */
  cast: 'real' | 'timestamptz' | 'bigint' | 'text';
  desc: boolean;
}

/** Rows come after the cursor when some key is past it and every earlier key equals it. */
export function keysetCondition(keys: SortKey[], values: string[], p: (v: unknown) => string): string {
  const params = values.map((v, i) => `${p(v)}::${keys[i]?.cast ?? 'text'}`);
  const ors = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => `${k.sql} = ${params[j]}`);
    return [...equal, `${key.sql} ${key.desc ? '<' : '>'} ${params[i]}`].join(' AND ');
  });
  return `(${ors.map((c) => `(${c})`).join(' OR ')})`;
}

/** The signature of a sort: a cursor only continues the sort it came from. */
const signature = (keys: SortKey[]) => keys.map((k) => `${k.sql}${k.desc ? '-' : '+'}`).join(',');

export function encodeCursor(keys: SortKey[], values: string[]): string {
  return Buffer.from(JSON.stringify({ s: signature(keys), k: values })).toString('base64url');
}

/**
 * The text forms each cast reads back: a cursor is the client's to send, so a forged value must be code 4 rather
 * than a cast PostgreSQL refuses (timestamps as PostgreSQL writes them, with a four-digit year).
 */
const KEY_FORMS: Record<SortKey['cast'], (v: string) => boolean> = {
  timestamptz: (v) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/.test(v),
  bigint: (v) => /^-?\d{1,18}$/.test(v),
  real: (v) => /^-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(v) && Number.isFinite(Number(v)),
  text: isSafeText,
};

export function decodeCursor(keys: SortKey[], token: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw inputError('next is not a valid cursor');
  }
  const { s, k } = (parsed ?? {}) as { s?: unknown; k?: unknown };
  if (
    s !== signature(keys) ||
    !Array.isArray(k) ||
    k.length !== keys.length ||
    k.some((v, i) => typeof v !== 'string' || !KEY_FORMS[keys[i]?.cast ?? 'text'](v))
  ) {
    throw inputError('next is not a valid cursor (for this query and sort)');
  }
  return k as string[];
}
