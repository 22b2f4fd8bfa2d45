/**
 * A text's place in a list ordered by name, as one string that sorts byte by byte: what the ordered
 * index stores and what the in-memory sort compares, so both give the same order. Case and accents do
 * not count, and runs of digits compare as numbers ("Unit 9" before "Unit 10").
 */
export function orderKey(value: unknown): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .trim()
    .replace(/\d+/g, (digits) => digits.replace(/^0+(?=\d)/, '').padStart(12, '0'))
    .slice(0, 300);
}

/**
 * Compares two order keys as the table sorts them (UTF-8 bytes, which is code point order): plain `<`
 * compares UTF-16 units, which differs for characters beyond the Basic Multilingual Plane.
 */
export function compareOrderKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
    if (surrogate(x) !== surrogate(y)) return surrogate(x) ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
