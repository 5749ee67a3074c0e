// What an import's line says beside the file's own gap count when the dataset's count differs
// (docs/data.md "Gaps"): the data command and the Data dialog say it in the same words.

/**
 * The words after a file's gap count: '' when the dataset's gaps after the file are the file's
 * own; ` (the dataset now has 1)` when the rest are gaps the file left between it and the
 * dataset's earlier rows (16 and 18 May without the 17th); ` in this file (the dataset has 1, of
 * an earlier file)` when they are earlier files' own (the 17th's gap, said on the 18th's line).
 * `before` is the dataset's count before the file, undefined when it is not known.
 */
export function gapNote(fileGaps: number, before: number | undefined, after: number | undefined): string {
  if (after === undefined || after === fileGaps) return '';
  if (before === undefined) return ` (the dataset now has ${after})`;
  const between = Math.max(0, after - before - fileGaps);
  const earlier = after - fileGaps - between;
  if (earlier <= 0) return ` (the dataset now has ${after})`;
  const of = earlier === 1 ? 'an earlier file' : 'earlier files';
  if (between > 0)
    return ` in this file (the dataset now has ${after}: ${between} it left between it and the earlier rows, ${earlier} of ${of})`;
  return ` in this file (the dataset has ${after}, ${fileGaps > 0 ? `${earlier} ` : ''}of ${of})`;
}

/** Each dataset's gap count before the next file of an import run (from the list shown or read at its start). */
export class GapCounts {
  private readonly counts: Map<number, number> | null;

  /** `known`: the datasets' counts at the start; null when they could not be read (then nothing is known). */
  constructor(known: Iterable<readonly [number, number]> | null) {
    this.counts = known === null ? null : new Map(known);
  }

  /** The dataset's count before the file (0 for one it started; undefined when not known), keeping `after` for its next file. */
  swap(id: number | null, after: number | undefined): number | undefined {
    if (this.counts === null || id === null) return undefined;
    const before = this.counts.get(id) ?? 0;
    if (after !== undefined) this.counts.set(id, after);
    return before;
  }
}
