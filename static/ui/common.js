// Small helpers shared by the pages.

import { getNumbering, setNumbering } from "./pieces.js";

export async function copyLink(button, url = location.href) {
  const before = button.textContent;
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = "Link copied";
  } catch {
    window.prompt("Copy this link:", url);
  }
  setTimeout(() => (button.textContent = before), 2000);
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
