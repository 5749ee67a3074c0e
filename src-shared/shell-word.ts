// How the sweep CLI quotes a word of a command it prints (src-main/sweep/cli-lines.ts), and how the
// Sweeps page quotes what it puts into one: a POSIX shell reads it back as that one word.

/** A word as a POSIX shell reads it back (quoted when it holds anything but safe characters). */
export const shellWord = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);
