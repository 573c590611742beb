/**
 * Lines in a box, for the one thing in a server's output a person must find among the log lines
 * (the first admin's setup code): a box stands out in a terminal and in `journalctl` alike.
 */
export function boxed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((line) => [...line].length));
  const rule = '─'.repeat(width + 4);
  const body = lines.map((line) => `│  ${line}${' '.repeat(width - [...line].length)}  │`);
  return [`╭${rule}╮`, ...body, `╰${rule}╯`, ''].join('\n');
}
