// The Data dialog's import run: the file being uploaded or imported and the lines of the pick's
// results. It outlives the dialog: an upload goes on when the dialog is closed, and a dialog opened
// again shows its progress and then what it did, and takes no second pick meanwhile (it showed
// nothing of it, took another pick at once, and the first pick's results were never said).
import { createStore } from 'zustand/vanilla';

interface Upload {
  file: string;
  sent: number;
  total: number;
}

/** A line of the pick's results: a file's import, or a picked file not uploaded. */
export interface ResultLine {
  text: string;
  ok: boolean;
}

export interface DataImportState {
  /** The file under way (uploading, then importing), or null when no pick is being imported. */
  upload: Upload | null;
  results: readonly ResultLine[];
  /** Cancels the pick under way (its upload aborted: the service stops its import, keeping nothing). */
  cancel: (() => void) | null;
}

export function createDataImportStore() {
  return createStore<DataImportState>()(() => ({ upload: null, results: [], cancel: null }));
}
