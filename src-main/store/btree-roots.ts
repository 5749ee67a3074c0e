// The start check's look at the tables it does not quick_check (store/database.ts checkDatabase):
// the market data and datasets, up to gigabytes, whose every page a quick_check would read. What
// it reads instead is each b-tree's root page (every table's and index's), straight from the file
// after a clean stop (no WAL: the file holds every page), and checks its b-tree page header as
// SQLite reads it, no stricter than SQLite does (a sound page is never refused): the page type,
// the cell count and the cell pointers within the page, the cell content area, the first
// freeblock, an interior page's right child within the file. One page per b-tree (a few dozen):
// damage there (a root page overwritten) is said at the start instead of at the first read of
// that table. A damaged page below a root is still met when it is read (docs/reliability.md, A
// damaged database).
import { closeSync, openSync, readSync } from 'node:fs';

export interface BtreeRoot {
  /** sqlite_master's type: 'table' or 'index'. */
  type: string;
  name: string;
  rootpage: number;
}

interface FileGeometry {
  pageSize: number;
  /** The page size less the bytes reserved at each page's end (header offset 20). */
  usable: number;
  /** Pages in the file. */
  pages: number;
}

/** What is wrong with a root page's b-tree header, or null when it reads as SQLite's. */
function rootHeaderProblem(page: Buffer, pageNo: number, type: string, g: FileGeometry): string | null {
  const h = pageNo === 1 ? 100 : 0;
  const kind = page[h];
  // table b-trees 5 / 13, index b-trees 2 / 10 (a WITHOUT ROWID table is an index b-tree)
  if (kind !== 2 && kind !== 5 && kind !== 10 && kind !== 13) return `page type ${kind} is not a b-tree page's`;
  if (type === 'index' && kind !== 2 && kind !== 10) return `page type ${kind} is not an index's`;
  const interior = kind === 2 || kind === 5;
  const cells = page.readUInt16BE(h + 3);
  const content = page.readUInt16BE(h + 5) || 65536;
  const pointersEnd = h + (interior ? 12 : 8) + 2 * cells;
  if (pointersEnd > content || content > g.usable)
    return `${cells} cells and a content area from ${content} do not fit a page of ${g.usable} bytes`;
  for (let i = 0; i < cells; i++) {
    const at = page.readUInt16BE(h + (interior ? 12 : 8) + 2 * i);
    // SQLite's own bound (btreeCellSizeCheck): after the pointer array, room for a cell's least
    if (at < pointersEnd || at > g.usable - 4) return `cell ${i} at ${at} is outside the page's cells`;
  }
  const free = page.readUInt16BE(h + 1);
  // SQLite's own bound (btreeComputeFreeSpace): after the pointer array, room for the block's header
  if (free !== 0 && (free < pointersEnd || free > g.usable - 4))
    return `the first freeblock at ${free} is outside the page`;
  if (interior) {
    const right = page.readUInt32BE(h + 8);
    if (right < 2 || right > g.pages) return `its right child page ${right} is not in the file (${g.pages} pages)`;
  }
  return null;
}

/** The first damaged root among `roots` of the database `file`, said in words; null when none. */
export function damagedRoot(file: string, roots: readonly BtreeRoot[], g: FileGeometry): string | null {
  const fd = openSync(file, 'r');
  try {
    const page = Buffer.alloc(g.pageSize);
    for (const r of roots) {
      const what = `the root page ${r.rootpage} of the ${r.type} ${r.name}`;
      if (r.rootpage < 1 || r.rootpage > g.pages) return `${what} is not in the file (${g.pages} pages)`;
      if (readSync(fd, page, 0, g.pageSize, (r.rootpage - 1) * g.pageSize) !== g.pageSize)
        return `${what} is cut short`;
      const problem = rootHeaderProblem(page, r.rootpage, r.type, g);
      if (problem !== null) return `${what} is damaged (${problem})`;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}
