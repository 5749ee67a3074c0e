// CSV text of records (the history tabs' exports): one header row of field names, one row a
// record, RFC 4180 quoting (a value with a comma, a quote or a line break in quotes, its quotes
// doubled), CRLF line ends as spreadsheets expect. Values as the API sent them: decimal strings
// stay exact; `time` columns get a UTC text beside the ms.
export function csvText(
  fields: readonly string[],
  rows: readonly object[],
  timeFields: readonly string[] = [],
): string {
  const head = fields.flatMap((f) => (timeFields.includes(f) ? [f, `${f}_utc`] : [f]));
  const lines = [head.map(cell).join(',')];
  for (const r of rows) {
    const rec = r as Record<string, unknown>;
    const cells: string[] = [];
    for (const f of fields) {
      const v = rec[f];
      cells.push(cell(v));
      if (timeFields.includes(f)) cells.push(typeof v === 'number' && v > 0 ? new Date(v).toISOString() : '');
    }
    lines.push(cells.join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

function cell(v: unknown): string {
  const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
