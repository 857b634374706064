// A plain-text table: columns aligned, numbers to the right, a header underlined. console.table would
// add an index column and quote strings, which reads badly in a closing note.

/** @param columns [{title, get(row) → string|number, align?: 'left'|'right'}] */
export function renderTable(rows, columns) {
  const cells = rows.map((r) => columns.map((c) => String(c.get(r) ?? '')));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...cells.map((row) => row[i].length)));
  const line = (values) =>
    values
      .map((v, i) => ((columns[i].align ?? 'right') === 'left' ? v.padEnd(widths[i]) : v.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), widths.map((w) => '─'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

export const fixed = (n, digits = 2) => (n === undefined || n === null || Number.isNaN(n) ? '–' : n.toFixed(digits));
export const thousands = (n) => (n === undefined || n === null ? '–' : n.toLocaleString('en-US'));
