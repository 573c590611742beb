import { micromark } from 'micromark';

/**
 * Markdown written by the store's staff as HTML. Raw HTML in it is escaped and links with
 * dangerous protocols (javascript:, data:…) lose their href: micromark's safe defaults, which
 * must stay on because the result is inserted into the page as is.
 */
export function renderMarkdown(markdown: string): string {
  const html = micromark(markdown, { allowDangerousHtml: false, allowDangerousProtocol: false });
  // The page title is the only h1; a text that starts its sections at "#" moves down one level.
  // Only micromark writes tags here (any "<" typed by the staff is escaped), so this is safe.
  if (!html.includes('<h1>')) return html;
  return html.replace(
    /<(\/?)h([1-5])>/g,
    (_tag, slash: string, level: string) => `<${slash}h${Number(level) + 1}>`,
  );
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}
