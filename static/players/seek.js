// "Play now": poll the seek until it is paired, then open the game (players/pairing.py).
const section = document.getElementById("seek");
const rangeText = document.getElementById("seek-range");

async function poll() {
  try {
    const response = await fetch(section.dataset.statusUrl, { headers: { Accept: "application/json" } });
    if (response.status === 404) {
      rangeText.textContent = "Nobody is waiting with you any more. Back to the lobby to try again.";
      return;
    }
    const status = await response.json();
    if (status.game) {
      window.location.assign(status.game);
      return;
    }
    if (section.dataset.rated === "1") rangeText.textContent = `Within ±${status.range} rating points; the range widens as you wait.`;
  } catch (error) {
    rangeText.textContent = "Connection lost; retrying…";
  }
  setTimeout(poll, 1500);
}

setTimeout(poll, 1000);
