// Why a nickname is refused, in words (lobby/views.py nickname_problem says the same).

import { gettext as _, interpolate as fmt } from "./i18n.js";

export function nicknameProblem(name) {
  if (!name) return _("Choose a nickname first: it is how others see you.");
  if (name.length > 24) return fmt(_("A nickname has at most 24 characters; this one has %(count)s."), { count: name.length });
  if (/\s/.test(name)) return fmt(_("A nickname has no spaces: try %(example)s."), { example: name.replace(/\s+/g, "_").slice(0, 24) });
  const odd = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ""))].sort().join("");
  return odd ? fmt(_("A nickname uses only letters A-Z, digits and _ - . (not %(chars)s)."), { chars: odd }) : "";
}
