// An event's page, live: the socket /ws/tournaments/<id>/ sends the standings, games and
// rounds as HTML after every change; an entrant whose game starts hears a sound, sees it in
// the tab's title and is taken to the game.
import { ReconnectingSocket } from "../ui/socket.js";
import { setSound, soundOn } from "../ui/sounds.js";
import { gettext as _ } from "../ui/i18n.js";
import { localTimes } from "./times.js";

const root = document.getElementById("tournament");
const live = document.getElementById("t-live");
const status = document.getElementById("t-connection");
const sound = document.getElementById("t-sound");
const me = root.dataset.me;
const title = document.title;
// The game the page was opened with is not news: only a game that starts later takes you.
let known = root.dataset.myGame || null;

function markMe() {
  if (!me) return;
  for (const row of live.querySelectorAll(`tr[data-entrant="${me}"]`)) row.classList.add("me");
}

function chime() {
  if (!soundOn() || typeof AudioContext === "undefined") return;
  const context = new AudioContext();
  let at = context.currentTime;
  for (const [freq, length] of [[523, 0.12], [659, 0.12], [784, 0.2]]) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.18, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + length);
    osc.connect(gain).connect(context.destination);
    osc.start(at);
    osc.stop(at + length);
    at += length;
  }
}

function yourGame(gameId) {
  document.title = "▶ " + _("Your game starts") + " · " + title;
  status.textContent = _("Your game starts: taking you there…");
  chime();
  setTimeout(() => { location.href = `/games/${gameId}/`; }, 1200);
}

function onFrame(frame) {
  if (frame.type !== "tournament") return;
  live.innerHTML = frame.html;
  localTimes(live);
  markMe();
  root.dataset.status = frame.status;
  if (frame.your_game && frame.your_game !== known) {
    known = frame.your_game;
    yourGame(frame.your_game);
  } else if (!frame.your_game) {
    known = null;
  }
}

if (sound) {
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
}
markMe();
new ReconnectingSocket(`/ws/tournaments/${root.dataset.id}/`, {
  onFrame,
  onStatus: (s) => {
    status.textContent = s === "open" ? "" : s === "gone" ? _("This event is gone.") : _("Reconnecting…");
  },
});
