// Formula-safe CSV for the exports (the links' and the audit log's).

/**
 * One CSV cell, always quoted. A cell a spreadsheet would read as a formula (starting with = + - @, tab or
 * carriage return) gets a leading apostrophe, as OWASP's CSV injection advice says.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export const csvRow = (cells: Array<string | number | null>) => `${cells.map(csvCell).join(",")}\r\n`;
