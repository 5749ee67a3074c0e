// The error box of a failed start. A start that fails must say why and where (the data folder:
// a newer database schema, a locked or damaged database, a folder in use by another perpdesk)
// and then end the process: a process that lingers without a window keeps the single-instance
// lock, and every later launch would quit at once without a word. A folder held by its listening
// service (`npm run serve` on the same folder: the app's single-instance lock does not see it)
// says where to open that one, as a second `npm run serve` does; before, the box only said to
// close it ("... is in use by another perpdesk (process N). Close that one first, ...").
import { alreadyRunningMessage, readServiceFile, type ServiceFile } from '../service-file.ts';
import { DataFolderInUseError } from '../store/data-lock.ts';

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

/** The folder's listening service when it is what refused the start (`err`), else null. */
export function folderHolderOf(err: unknown, dataDir: string | null): ServiceFile | null {
  if (!(err instanceof DataFolderInUseError) || err.pid === null || dataDir === null || dataDir === ':memory:')
    return null;
  const running = readServiceFile(dataDir);
  return running !== null && running.pid === err.pid ? running : null;
}

export function startupErrorBox(
  err: unknown,
  where: { dataDir: string | null; logFile: string | null; running?: ServiceFile | null },
): ErrorBox {
  const running = where.running ?? null;
  const lines = [running === null ? errorMessage(err) : alreadyRunningMessage(running), ''];
  if (where.dataDir !== null) lines.push(`Data folder: ${where.dataDir}`);
  if (where.logFile !== null) lines.push(`Details: ${where.logFile}`);
  return { title: 'perpdesk could not start', content: lines.join('\n').trimEnd() };
}
