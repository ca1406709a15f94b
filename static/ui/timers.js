// The players' strips, the clocks, the setup time and absence: drawn from the state only
// (static/ui/reduce.js makes it); the page redraws them every 200 ms.

import { COLOR_NAMES } from "./pieces.js";
import { isOver } from "./reduce.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";
import { seatName } from "./words.js";

const $ = (id) => document.getElementById(id);
const LOW_TIME_MS = 30_000; // a clock under this is shown as low
let state = null; // the state being drawn (set by renderSeats / renderTimers)
const active = () => !!state.game && !isOver(state);
const isPlayer = () => state.role === 0 || state.role === 1;
const phase = () => state.view?.phase;

// The players' strips above and below the board (the side at the top of the board above it),
// each with its clock and, when that player left, a "left" mark (the side panel says more).
export function renderSeats(current) {
  state = current;
  const seats = state.game?.seats || [null, null];
  const away = state.game?.away || [null, null];
  $("board-area").classList.toggle("flipped", state.role === 1);
  [0, 1].forEach((color) => {
    const el = $(`seat-${color}`);
    if (!el) return;
    const seat = seats[color];
    const you = state.role === color ? ` (${_("you")})` : "";
    const ready = state.view?.phase === "setup" ? setupNote(color) : "";
    el.querySelector(".name").replaceChildren(...(seat ? [...nameNodes(seat), `${you}${ready}`] : [_("free seat")]));
    el.classList.toggle("to-move", state.view?.phase === "playing" && state.view.turn === color && active());
    const note = el.querySelector(".seat-note");
    note.hidden = !(active() && away[color]);
    note.textContent = _("left");
  });
}

// A name as every page shows it: an account's links to its profile, a guest's says "(guest)".
export function nameNodes(person) {
  if (person.guest) return [`${person.name} (${_("guest")})`];
  if (person.computer) return [seatName(person)];
  const a = document.createElement("a");
  a.href = `/players/${encodeURIComponent(person.name)}/`;
  a.className = "profile-link";
  a.textContent = person.name;
  return [a];
}

// In setup the other side's squares are private: its strip says how many pieces it placed.
function setupNote(color) {
  if (state.view.ready[color]) return ` · ${_("ready")}`;
  const placed = state.view.placed?.[color];
  return color !== state.role && placed != null ? ` · ${fmt(_("%(count)s placed"), { count: placed })}` : "";
}

// ------------------------------------------------------------------ clocks and absence

// The server sends each clock as of its send time; the running one counts down here.
function clockLeft(color) {
  const clock = state.clock;
  const ms = clock.remaining_ms[color];
  if (clock.running !== color || !active()) return ms;
  return Math.max(0, ms - (performance.now() - state.clockAt));
}

// "4:37", and under ten seconds "0:09.4".
function clockText(ms) {
  if (ms < 10_000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  return waitText(ms);
}

function waitText(ms) {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export function renderTimers(current) {
  state = current;
  renderClocks();
  renderSetupTimer();
  renderAway();
}

function renderClocks() {
  const clock = state.clock;
  [0, 1].forEach((color) => {
    const el = $(`clock-${color}`);
    el.hidden = !clock;
    if (!clock) return;
    const ms = clockLeft(color);
    const running = clock.running === color && active();
    const text = clockText(ms);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("running", running);
    el.classList.toggle("low", ms < LOW_TIME_MS);
    el.dataset.ms = String(Math.round(ms));
    const how = `${running ? `, ${_("running")}` : ""}${ms < LOW_TIME_MS ? `, ${_("low")}` : ""}`;
    el.setAttribute("aria-label", fmt(_("%(color)s's clock: %(time)s"), { color: COLOR_NAMES[color], time: `${text}${how}` }));
  });
}

function renderSetupTimer() {
  const el = $("setup-timer");
  const ms = state.clock?.setup_ms;
  el.hidden = ms == null || !active() || phase() !== "setup";
  if (el.hidden) return;
  const left = Math.max(0, ms - (performance.now() - state.clockAt));
  el.textContent = fmt(_("Setup time left: %(time)s"), { time: waitText(left) });
  el.classList.toggle("low", left < LOW_TIME_MS);
}

// A seated player without a socket (game.away), in the side panel (it never moves the board):
// who left and what that means now. Their opponent may claim victory once claim_ms has passed
// (untimed games, and setups); in a timed game in play the clocks decide, so it says whose
// clock runs. The countdown is on the button only (the text is read out when it changes).
function renderAway() {
  const away = state.game?.away || [null, null];
  const panel = $("away");
  const gone = [0, 1].filter((color) => away[color] && color !== state.role);
  panel.hidden = !active() || gone.length === 0;
  const button = $("btn-claim");
  button.hidden = true;
  if (panel.hidden) return;
  const line = gone.map((color) => awayText(color, away[color])).join(" ");
  if ($("away-text").textContent !== line) $("away-text").textContent = line;
  const opp = isPlayer() ? 1 - state.role : null;
  if (opp == null || !away[opp] || away[opp].claim_ms == null) return;
  const left = claimLeft(away[opp]);
  button.hidden = false;
  button.disabled = left > 0 || state.claiming;
  const label = left > 0 ? fmt(_("Claim victory in %(time)s"), { time: waitText(left) }) : _("Claim victory");
  if (button.textContent !== label) button.textContent = label;
}

function wallTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function claimLeft(away) {
  return Math.max(0, away.claim_ms - (performance.now() - state.gameAt));
}

function awayText(color, away) {
  const who = fmt(_("%(color)s (%(name)s) left the game."), { color: COLOR_NAMES[color], name: seatName(state.game.seats[color]) || "?" });
  const other = 1 - color;
  const mine = state.role === other; // this page is the opponent's
  if (away.claim_ms != null) {
    const at = wallTime(state.gameWall + away.claim_ms);
    if (claimLeft(away) === 0) return `${who} ${mine ? _("You may claim victory.") : fmt(_("%(color)s may claim victory."), { color: COLOR_NAMES[other] })}`;
    if (mine) return `${who} ${fmt(_("If they are not back by %(time)s, you may claim victory."), { time: at })}`;
    return `${who} ${fmt(_("If they are not back by %(time)s, %(color)s may claim victory."), { time: at, color: COLOR_NAMES[other] })}`;
  }
  const running = state.clock?.running;
  if (running === color) return `${who} ${_("Their clock is running: if they do not come back, they lose on time.")}`;
  if (running === other) {
    return `${who} ${mine ? _("It is your move: their clock stands until you have moved.") : fmt(_("Their clock stands while %(color)s is to move."), { color: COLOR_NAMES[other] })}`;
  }
  return who;
}

