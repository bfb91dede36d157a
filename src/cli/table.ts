// Plain-text layout for terminal output (oclif 4 has no table, and @oclif/table needs Node 22).

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ');
}

/** Left-aligned columns two spaces apart, with a header row. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]?.length ?? 0)));
  return [headers, ...rows].map((row) => pad(row, widths).trimEnd()).join('\n');
}

/** `key  value` lines with the values aligned. */
export function formatFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([key]) => key.length));
  return fields.map(([key, value]) => `${key.padEnd(width)}  ${value}`).join('\n');
}
