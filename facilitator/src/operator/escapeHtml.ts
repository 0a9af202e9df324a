/**
 * HTML escaping for the operator page. Every value reaches the page through {@link html}, so a journal
 * reason, an RPC origin or an amount that carries markup is shown as text, never parsed as markup.
 */

/** Text with `& < > " '` replaced by their entities: safe in element content and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character as keyof typeof ENTITIES]);
}

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" } as const;

/** Markup built by {@link html}: the one kind of value interpolated without escaping. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/** A value {@link html} accepts: escaped unless it is {@link SafeHtml}; arrays are joined without separator. */
export type HtmlValue = SafeHtml | string | number | readonly HtmlValue[];

/**
 * Tagged template that escapes every interpolated value, so no call site can forget to: only fragments
 * that themselves came from `html` pass through unchanged.
 *
 * @example
 * html`<td>${entry.reason}</td>`; // "<td>&lt;script&gt;…</td>" for a hostile reason
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? "";
  values.forEach((value, index) => {
    markup += render(value) + (strings[index + 1] ?? "");
  });
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}
