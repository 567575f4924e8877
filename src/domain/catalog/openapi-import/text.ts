/**
 * Words from an API description made fit for the catalog: Markdown and HTML stripped, one paragraph, bounded
 * at a sentence or word boundary; ids and field names made of the characters templates and ids allow.
 */

/** Markdown and HTML reduced to the words a person reads. */
export function plainText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?(p|div|ul|ol|li|h[1-6]|table|tr)\b[^>]*>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s{0,3}>\s?/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** The first paragraph of the plain text, on one line. */
export function firstParagraph(text: string): string {
  const paragraphs = plainText(text)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  return paragraphs[0] ?? '';
}

/** At most `max` characters, cut after a sentence when one ends late enough, else at a word, with an ellipsis. */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const sentence = head.search(/[.!?](?=\s[^.!?]*$)/);
  if (sentence >= max / 2) return head.slice(0, sentence + 1);
  const word = head.lastIndexOf(' ');
  return `${(word >= max / 2 ? head.slice(0, word) : head).replace(/[\s,;:.-]+$/, '')}…`;
}

/** camelCase and other words as lower-case words joined by `_`: `listPetsByOwner` → `list_pets_by_owner`. */
export function snakeWords(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '');
}

/**
 * An input field name templates can name (`{field}`: letters, digits and `_`, not starting with a digit):
 * `X-Request-Id` → `x_request_id`, `page[size]` → `page_size`, `2fa` → `_2fa`.
 */
export function fieldName(name: string): string {
  const words = name
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  const field = /^[A-Za-z]/.test(words) ? words : `_${words}`;
  return field === '_' ? '_field' : field;
}
