// A count and its noun, singular for one ("1 row", "0 rows", "2 files"): the data command's and
// the import's messages say counts so (they said "1 rows" and "3 file(s)").

/** `n` and the noun in the number it takes: `one` for 1 (and -1), `many` (default `one` + s) otherwise. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${Math.abs(n) === 1 ? one : many}`;
}
