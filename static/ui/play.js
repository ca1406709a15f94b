// The game page drawn from the state (static/ui/reduce.js and static/ui/input.js make it):
// the status line, the board and its marks, the setup panel, the game actions, the move
// list, the battle panel and the end banner. It reads the state, never the DOM, for what
// the game is, and changes nothing but the page.

import { renderBattle, renderMoveList, resultText, battleText } from "./moves.js";
import { countRemaining } from "./tray.js";
import { boardMarks, canSetUp, isActive, isPlayer, myColor, myTurn, totalArmy } from "./input.js";
import { statusText } from "./status.js";
import { renderSeats, renderTimers } from "./timers.js";
import { renderBoardBattle } from "./match.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";
import { LOADING } from "./controls.js";

const $ = (id) => document.getElementById(id);

// parts: {root, board, tray}
export function renderPlay(state, parts) {
  const v = state.view;
  $("status").textContent = statusText(state, pageOffers());
  Object.assign(parts.root.dataset, {
    phase: v?.phase || "",
    status: state.game?.status || "",
    roleNow: state.role,
    turn: v?.turn ?? "",
  });
  renderSeats(state);
  renderSpectators(state);
  renderTimers(state);
  renderShare(state);
  if (!v) return;
  parts.board.layout(v.width, v.height, v.lakes, state.role === 1);
  parts.board.render(v.board, { ...boardMarks(state), lastMove: v.last_move, numbering: state.numbering });
  renderBoardBattle(parts.board, state);
  $("board").classList.toggle("my-turn", myTurn(state));
  renderSetupPanel(state, parts.tray);
  renderActions(state);
  renderMoveList($("move-list"), [...state.moves.values()], state.numbering);
  renderBattle($("battle"), state.battleMove, state.numbering);
  if (state.battleMove) $("battle").setAttribute("aria-label", battleText(state.battleMove, state.numbering));
  renderBanner(state);
}

// The join buttons and nickname form the server put on the page (for the status's words).
function pageOffers() {
  const join = [...document.querySelectorAll("#join-form button")].map((b) => b.textContent.trim());
  return { join, nicknameForm: !!$("nickname-form") };
}

export function renderSpectators(state) {
  const n = state.spectators ?? 0;
  $("spectators").textContent = fmt(_("%(count)s watching"), { count: n });
  $("spectators").dataset.count = n;
}

// The invitation box while a player waits for an opponent; one "Copy link" at a time.
function renderShare(state) {
  const share = $("share");
  if (share) share.hidden = !(isPlayer(state) && state.game?.status === "waiting");
  $("btn-copy-link").hidden = !!share && !share.hidden;
}

function renderSetupPanel(state, tray) {
  const v = state.view;
  const inSetup = v.phase === "setup" && isActive(state);
  $("setup-panel").hidden = !(isPlayer(state) && inSetup);
  if (!(isPlayer(state) && inSetup)) return;
  const open = canSetUp(state);
  tray.render(v.remaining, myColor(state), state.trayRank, state.numbering, open);
  const left = countRemaining(v.remaining);
  $("btn-ready").disabled = !open || left > 0;
  $("btn-random").disabled = !open || left === 0;
  $("btn-clear").disabled = !open || left === totalArmy(state);
  $("btn-remove").disabled = !open || state.selected == null;
  $("btn-save").disabled = left > 0 || !state.variantInfo;
  $("setup-note").textContent = state.setupNote && left === 0 && state.setupNote === LOADING()
    ? _("Setup loaded.")
    : state.setupNote || "";
}

// Resign (or cancel a game nobody joined), the draw offer and its answer.
function renderActions(state) {
  const v = state.view;
  const playing = v.phase === "playing" && isActive(state);
  const inSetup = v.phase === "setup" && isActive(state);
  $("play-controls").hidden = !(isPlayer(state) && (playing || inSetup));
  const waiting = state.game.status === "waiting";
  $("btn-resign").textContent = waiting ? _("Cancel this game") : _("Resign");
  $("resign-question").textContent = waiting ? _("Really cancel this game?") : _("Really resign this game?");
  $("btn-resign-yes").textContent = waiting ? _("Yes, cancel the game") : _("Yes, resign");
  $("btn-resign-no").textContent = waiting ? _("No, keep it") : _("No, play on");
  $("resign-confirm").hidden = !state.confirmResign;
  const offer = state.game.draw_offer;
  $("btn-draw").hidden = !playing || offer === state.role;
  $("draw-offer").hidden = !playing || offer == null || offer === state.role;
  $("draw-pending").hidden = !playing || offer !== state.role;
}

function renderBanner(state) {
  const g = state.game;
  const over = g.status === "finished" || g.status === "aborted";
  $("banner").hidden = !over;
  $("status").hidden = over;
  if (!over) return;
  const mine = isPlayer(state) && g.result?.winner === state.role;
  const lost = isPlayer(state) && g.result && g.result.winner === 1 - state.role;
  $("banner").className = `banner${mine ? " won" : lost ? " lost" : ""}`;
  // Nothing to replay in a game cancelled before it began or ended before its first move.
  const played = Math.max(g.ply || 0, state.moves.size);
  $("replay-link").hidden = g.status === "aborted" || played === 0;
  const words = resultText(g.result, g.seats) || _("The game is over.");
  $("banner-text").textContent = `${mine ? `${_("You won!")} ` : lost ? `${_("You lost.")} ` : ""}${words}`;
}
