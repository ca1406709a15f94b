// "Play now": poll the seek until it is paired, then open the game (players/pairing.py).

import { gettext as _, interpolate as fmt } from "../ui/i18n.js";

const section = document.getElementById("seek");
const rangeText = document.getElementById("seek-range");

async function poll() {
  try {
    const response = await fetch(section.dataset.statusUrl, { headers: { Accept: "application/json" } });
    if (response.status === 404) {
      rangeText.textContent = _("Nobody is waiting with you any more. Back to the lobby to try again.");
      return;
    }
    const status = await response.json();
    if (status.game) {
      window.location.assign(status.game);
      return;
    }
    if (section.dataset.rated === "1") rangeText.textContent = fmt(_("Within ±%(range)s rating points; the range widens as you wait."), { range: status.range });
  } catch (error) {
    rangeText.textContent = _("Connection lost; retrying…");
  }
  setTimeout(poll, 1500);
}

setTimeout(poll, 1000);
