// Names the JIT code in a callgrind count: `node bench/callgrind-js.ts CALLGRIND_FILE PERF_MAP [top]`
// prints the file's self instructions by function, the JS functions named from the perf map that
// `node --perf-basic-prof` wrote (/tmp/perf-PID.map; `*` TurboFan, `+` Maglev, `^` Sparkplug,
// `~` the interpreter), the native ones as callgrind_annotate names them. For
// bench/signed-work.ts's counts (docs/benchmarks.md). Needs valgrind's callgrind_annotate.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [file, map, top = '40'] = process.argv.slice(2);
if (file === undefined || map === undefined) {
  console.error('usage: node bench/callgrind-js.ts CALLGRIND_FILE PERF_MAP [top]');
  process.exit(2);
}
const ranges: Array<[number, number, string]> = [];
for (const line of readFileSync(map, 'utf8').split('\n')) {
  const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
  if (m) ranges.push([parseInt(m[1], 16), parseInt(m[2], 16), m[3]]);
}
ranges.sort((a, b) => a[0] - b[0]);

/** The perf map's name of the code at `addr`, or null. */
function nameAt(addr: number): string | null {
  let lo = 0;
  let hi = ranges.length - 1;
  let best: [number, number, string] | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid][0] <= addr) {
      best = ranges[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best !== null && addr < best[0] + best[1] ? best[2] : null;
}

const out = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', file], {
  maxBuffer: 1 << 28,
}).toString();
const by = new Map<string, number>();
let total = 0;
for (const line of out.split('\n')) {
  const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
  if (!m) continue;
  const n = Number(m[1].replaceAll(',', ''));
  if (m[2].includes('PROGRAM TOTALS')) {
    total = n;
    continue;
  }
  const jit = /\?\?\?:0x([0-9a-f]+)/.exec(m[2]);
  const key =
    jit === null
      ? m[2].replace(/\s*\[.*\]$/, '').replace(/\(.*$/, '')
      : `${(nameAt(parseInt(jit[1], 16)) ?? 'JS (unnamed JIT code)').replace(/file:\/\/\S*?\/(src-main|src-shared|bench)\//, '$1/')}`;
  by.set(key, (by.get(key) ?? 0) + n);
}
console.log(`total ${total}`);
for (const [k, n] of [...by].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(`${String(n).padStart(12)} ${((100 * n) / total).toFixed(1).padStart(5)}%  ${k}`);
