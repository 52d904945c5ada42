/**
 * The initials of a person without a photo (product-spec §9, chat-spec §9): the first letter of a one-word name,
 * of each word of a two-word name, of the first and the last word of a longer one. `?` for an empty name.
 */
export function initialsOf(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first) return '?';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  // Array.from keeps a letter outside the BMP (an emoji, a rare script) whole.
  const letter = (word: string) => (Array.from(word)[0] ?? '').toLocaleUpperCase();
  return letter(first) + (last ? letter(last) : '');
}
