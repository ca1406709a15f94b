// Small helpers shared by the pages.

import { getNumbering, setNumbering } from "./pieces.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

// Copy a link; where the clipboard is not available (plain http on a LAN), select the
// text of `input` so the person can copy it by hand.
export async function copyLink(button, url = location.href, input = null) {
  const before = button.textContent;
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = _("Link copied");
  } catch {
    if (input) {
      input.focus();
      input.select();
      button.textContent = _("Selected: press Ctrl+C");
    } else {
      window.prompt(_("Copy this link:"), url);
    }
  }
  setTimeout(() => (button.textContent = before), 2500);
}

// A <select> with "modern" / "classic" options, remembered in localStorage.
export function bindNumberingSwitch(select, onChange) {
  if (!select) return;
  select.value = getNumbering();
  select.addEventListener("change", () => {
    setNumbering(select.value);
    onChange(getNumbering());
  });
}
