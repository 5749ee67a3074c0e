// The bot whitelist's field in Settings as the venue's list is read again while the drawer is open
// (every 2 s, settings-store.ts refreshWhitelist): another tab, or a bot's PUT /admin/v1/whitelist,
// may change it meanwhile. A field the trader has not edited shows the list read; an edit is kept,
// and when the venue's list changed since the edit began the field says so, as Save would replace
// that list with the edit. (Until 2026-12-07 the list was read once, when Settings opened: a tab
// open on it kept showing "127.0.0.1, ::1, ::ffff:127.0.0.1" after another tab saved 10.0.0.5, and
// its next Save dropped 10.0.0.5 without a word.)

export interface WhitelistField {
  /** What the field holds. */
  text: string;
  /** The venue's list as last read, one IP a line. */
  shown: string;
  /** The venue's list when the trader's edit began (the list shown while there is no edit). */
  base: string;
}

const whitelistText = (ips: readonly string[]): string => ips.join('\n');

/** The IPs the field holds, one a line (or split by spaces or commas). */
export function whitelistIps(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/** The field as the venue's list is first read, or saved (the edit is now the venue's). */
export function whitelistFieldOf(ips: readonly string[]): WhitelistField {
  const t = whitelistText(ips);
  return { text: t, shown: t, base: t };
}

/** The venue's list read again: shown unless the field holds an edit, which is kept. */
export function followWhitelist(field: WhitelistField, ips: readonly string[]): WhitelistField {
  const next = whitelistText(ips);
  if (field.text === field.base) return whitelistFieldOf(ips);
  return { ...field, shown: next };
}

/** The field typed in: an edit of the list shown (or back to it, no edit). */
export function editWhitelist(field: WhitelistField, text: string): WhitelistField {
  return field.text === field.base ? { text, shown: field.shown, base: field.shown } : { ...field, text };
}

/** The line under an edit whose list the venue changed meanwhile, else null. */
export function whitelistChangedNote(field: WhitelistField): string | null {
  if (field.text === field.base || field.base === field.shown) return null;
  const now = field.shown.split('\n').filter(Boolean).join(', ');
  return `The whitelist changed meanwhile (another tab or a bot): it is now ${now}. Save replaces it with the list above.`;
}
