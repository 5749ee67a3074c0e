// What the documentation points a reader at exists: every relative link's file and heading anchor,
// and every repository path it names in backticks (`src-main/data/ports.ts`; in a table row, a
// bare file name after such a path is that path's folder's: the code maps of docs/*.md). A file
// renamed or removed leaves no page naming it (docs/data.md's code map named the datasets port
// `dataset-store.ts`, a file that never existed). benchmarks-log.md is a dated log of what was
// measured then, its files as they were, and is not checked.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PAGES = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'benchmarks-log.md')
    .map((f) => `docs/${f}`),
];
const REPO_PATH = /^(src-main|src-shared|src-renderer|test|bench|examples|scripts|e2e)\//;

const read = (page: string): string => fs.readFileSync(path.join(ROOT, page), 'utf8');
const withoutCode = (text: string): string => text.replace(/```[\s\S]*?```/g, '');

/** A page's heading anchors as GitHub makes them (lower case, punctuation dropped, spaces to -, repeats -1, -2). */
function anchors(page: string): Set<string> {
  const seen = new Set<string>();
  for (const m of withoutCode(read(page)).matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const text = m[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let i = 1; seen.has(anchor); i++) anchor = `${slug}-${i}`;
    seen.add(anchor);
  }
  return seen;
}

function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const m of withoutCode(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = m[1];
    if (/^[a-z]+:/.test(link)) continue;
    const [file, anchor] = link.split('#');
    const target = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
    if (!fs.existsSync(path.join(ROOT, target))) broken.push(`${link} (no file ${target})`);
    else if (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor))
      broken.push(`${link} (no heading #${anchor} in ${target})`);
  }
  return broken;
}

function missingPaths(page: string): string[] {
  const missing: string[] = [];
  for (const line of read(page).split('\n')) {
    let folder: string | null = null;
    for (const [, name] of line.matchAll(/`([^`\s*]+\.(?:ts|tsx|mjs|json|md|csv))`/g)) {
      if (REPO_PATH.test(name)) {
        folder = path.posix.dirname(name);
        if (!fs.existsSync(path.join(ROOT, name))) missing.push(name);
      } else if (line.startsWith('|') && folder !== null && !name.includes('/')) {
        const inFolder = `${folder}/${name}`;
        if (!fs.existsSync(path.join(ROOT, inFolder))) missing.push(`${inFolder} (${name} after ${folder}/)`);
      }
    }
  }
  return missing;
}

describe('documentation references', () => {
  it.each(PAGES)('%s: every relative link and anchor resolves', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it.each(PAGES)('%s: every repository file it names exists', (page) => {
    expect(missingPaths(page)).toEqual([]);
  });
});
