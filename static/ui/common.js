// Small helpers shared by the pages.

import { getNumbering, setNumbering } from "./pieces.js";

// Copy a link; where the clipboard is not available (plain http on a LAN), select the
// text of `input` so the person can copy it by hand.
export async function copyLink(button, url = location.href, input = null) {
  const before = button.textContent;
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = "Link copied";
  } catch {
    if (input) {
      input.focus();
      input.select();
      button.textContent = "Selected: press Ctrl+C";
    } else {
      window.prompt("Copy this link:", url);
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
