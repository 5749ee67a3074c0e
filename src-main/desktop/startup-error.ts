// The error box of a failed start. A start that fails must say why and where (the data folder:
// a newer database schema, a locked or damaged database, a folder in use by another perpdesk)
// and then end the process: a process that lingers without a window keeps the single-instance
// lock, and every later launch would quit at once without a word.

export interface ErrorBox {
  title: string;
  content: string;
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

export function startupErrorBox(err: unknown, where: { dataDir: string | null; logFile: string | null }): ErrorBox {
  const lines = [errorMessage(err), ''];
  if (where.dataDir !== null) lines.push(`Data folder: ${where.dataDir}`);
  if (where.logFile !== null) lines.push(`Details: ${where.logFile}`);
  return { title: 'perpdesk could not start', content: lines.join('\n').trimEnd() };
}
