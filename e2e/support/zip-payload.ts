// A zip of one CSV, as a file the page's file picker takes (setInputFiles): held in memory, so a
// run leaves no file behind.
import { strToU8, zipSync } from 'fflate';

/** `name` (an archive's .zip name) holding `csv` as the same name's .csv. */
export function zipPayload(name: string, csv: string): { name: string; mimeType: string; buffer: Buffer } {
  const zip = zipSync({ [name.replace(/\.zip$/, '.csv')]: strToU8(csv) });
  return { name, mimeType: 'application/zip', buffer: Buffer.from(zip) };
}
