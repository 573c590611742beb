/**
 * A list as a table, shown from the width where its columns fit (`shownFrom`); below it the
 * screen shows the same rows as cards, since a table 360 px wide would scroll sideways or crush
 * its columns.
 */
export function AdminTable({
  caption,
  columns,
  shownFrom,
  children,
}: {
  caption: string;
  /** Column headings; `end` aligns a column of amounts or actions to the right. */
  columns: { label: string; end?: boolean }[];
  shownFrom: 'md' | 'lg';
  /** The rows (<tr>). */
  children: React.ReactNode;
}) {
  return (
    <div
      className={`admin-card hidden overflow-x-auto p-0 ${shownFrom === 'md' ? 'md:block' : 'lg:block'}`}
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-700 uppercase">
          <tr>
            {columns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={column.end ? 'px-4 py-3 text-right' : 'px-4 py-3'}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  );
}
