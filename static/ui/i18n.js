// The client's words in the page's language: Django's JavaScript catalogue (/jsi18n/, loaded
// by base.html before the modules) defines window.gettext and window.interpolate. Without it
// (node's tests, a failed load) the English text is used as it is.

export function gettext(text) {
  return typeof window !== "undefined" && window.gettext ? window.gettext(text) : text;
}

export function ngettext(one, many, count) {
  if (typeof window !== "undefined" && window.ngettext) return window.ngettext(one, many, count);
  return count === 1 ? one : many;
}

// A word whose meaning its context tells ("hard": a computer level).
export function pgettext(context, text) {
  return typeof window !== "undefined" && window.pgettext ? window.pgettext(context, text) : text;
}

// interpolate("Move %(n)s of %(total)s", {n: 3, total: 9}): named places filled in.
export function interpolate(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}
