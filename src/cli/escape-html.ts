import { escapeBidiControls } from './escape-controls.js';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for an HTML text node or a quoted attribute value, bidi controls shown as `\uXXXX`.
 * Session text is untrusted: every piece of it goes through here.
 *
 * @internal
 */
function escapeHtml(text: string): string {
  return escapeBidiControls(text).replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

/**
 * `escapeHtml` as a template tag: interpolated values are escaped, the template's own markup is
 * not. Values that are already markup are passed as {@link Markup}.
 *
 * @internal
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1]!;
  });
  return new Markup(out);
}

function render(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A piece of HTML that {@link html} inserts as it is.
 *
 * @internal
 */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}
