// The soak's choices and words that do not need a run (scripts/soak.mjs, docs/reliability.md
// "Soak"): the warm-up, checked against the samples the trends need before anything starts, and
// the lines of a sample and the summary whose case can be empty.

/** Samples the trends need after the warm-up. */
export const MIN_SAMPLES_AFTER = 3;

/** Samples a run of `minutes` takes after a warm-up of `warmup` minutes (one at 0, then one every `sampleS` s). */
function samplesAfter(minutes, sampleS, warmup) {
  return Math.round((minutes * 60) / sampleS) - Math.ceil((warmup * 60) / sampleS - 1e-9) + 1;
}

const round2 = (x) => Number(x.toFixed(2));

/**
 * The warm-up in minutes: `given` (--warmup), else a third of the run, at least a minute, unless
 * that leaves the trends fewer than MIN_SAMPLES_AFTER samples (a run up to about 1.3 minutes),
 * then a third. `error`: why the run cannot measure, said before it starts (before, `--minutes 1`
 * ran a minute and a half and then failed on it, and `--warmup 5 --minutes 1` was taken).
 */
export function chooseWarmup(minutes, sampleS, given) {
  const long = Math.max(1, minutes / 3);
  const warmup = given ?? (samplesAfter(minutes, sampleS, long) >= MIN_SAMPLES_AFTER ? long : minutes / 3);
  const left = samplesAfter(minutes, sampleS, warmup);
  if (left >= MIN_SAMPLES_AFTER) return { warmup, error: null };
  const sample = `one every ${sampleS} s`;
  const most = ((Math.round((minutes * 60) / sampleS) - MIN_SAMPLES_AFTER + 1) * sampleS) / 60;
  return {
    warmup,
    error:
      given !== undefined && most > 0
        ? `--warmup ${given} leaves ${Math.max(0, left)} sample(s) of the ${minutes}-min run (${sample}); the trends ` +
          `need ${MIN_SAMPLES_AFTER}: give a --warmup of at most ${round2(most)}, or a longer --minutes`
        : `--minutes ${minutes} is too short: the trends need ${MIN_SAMPLES_AFTER} samples after a warm-up (${sample}); ` +
          `give at least ${round2((MIN_SAMPLES_AFTER * sampleS) / 60)} minutes, or a smaller --sample`,
  };
}

/** The live heap of a sample, known from the first full collection on (NaN before). */
export function liveText(live, MiB) {
  return Number.isNaN(live) ? 'not known before the first full collection' : MiB(live);
}

/** The summary's stall line; its list of the longest follows only when there are some. */
export function stallsLine(stalls) {
  if (stalls.length === 0) return 'soak: event-loop stalls over 100 ms after the warm-up: none';
  const ms = stalls.reduce((a, s) => a + s.ms, 0);
  return `soak: event-loop stalls over 100 ms after the warm-up: ${stalls.length} (${ms.toFixed(0)} ms in all); the longest:`;
}

/** What the replay starts took (each replay's start, in s), or why there were none. */
export function replayStartsText(withReplay, starts) {
  if (!withReplay) return 'no replay (--no-replay)';
  if (starts.length === 0) return 'no replay started';
  return `replay starts took ${starts.map((r) => `${(r.ms / 1000).toFixed(1)} s`).join(', ')}`;
}
