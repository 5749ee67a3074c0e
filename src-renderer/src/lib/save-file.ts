// Saving a file the screen makes (Export CSV). In the desktop window the main process asks
// where (its save dialog, desktop/save-file.ts) and answers the path, or null when the user
// cancelled: the screen then says nothing was saved. In a browser the file is downloaded, and
// the browser's own setting decides where: the screen knows only the name it gave.
// A save the main process refuses (a folder gone, a full disk) reaches the page as Electron's
// ipcRenderer.invoke rejects it, "Error invoking remote method 'perpdesk:save-file': Error: " and
// then the message: the screen says the message alone (before 2026-12-08 it said Electron's words too).

declare global {
  interface Window {
    /** The desktop preload's "save as" (absent in a browser). */
    perpdeskSaveFile?: (file: string, text: string) => Promise<string | null>;
  }
}

/** Where `text` was saved (the desktop's path, a browser's file name), or null when cancelled. */
export async function saveTextFile(file: string, text: string, type: string): Promise<string | null> {
  const desktopSave = typeof window === 'undefined' ? undefined : window.perpdeskSaveFile;
  if (typeof desktopSave === 'function') {
    try {
      return await desktopSave(file, text);
    } catch (err) {
      throw new Error(withoutIpcPrefix(err instanceof Error ? err.message : String(err)), { cause: err });
    }
  }
  download(file, text, type);
  return file;
}

/** The main process's message without the words Electron puts before it (its error's name included). */
function withoutIpcPrefix(message: string): string {
  return message.replace(/^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/, '');
}

/** Saves `text` as `file` through the browser's download. */
function download(file: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
