import type { MessageKey } from '../../i18n/en';
import { i18n } from '../../i18n/t';

/** A key with plural forms (`x_one`, `x_other`), named without the suffix. */
export type PluralKey = MessageKey extends infer K ? (K extends `${infer Base}_other` ? Base : never) : never;

/** A counted text in the interface language's plural form, chosen by i18next from `count`. */
export function tCount(key: PluralKey, count: number): string {
  return i18n.t(key, { count });
}
