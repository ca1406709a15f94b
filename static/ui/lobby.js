// The lobby's live lists over /ws/lobby/ (docs/protocol.md, "Lobby socket"):
// join a waiting game, watch a live one, replay a finished one. A row is drawn here and
// nowhere else: the page arrives with the lists' snapshot as JSON (drawn at once, before the
// socket connects) and the socket sends the lists again at each change.

import { ReconnectingSocket } from "./socket.js";
import { COLOR_NAMES } from "./pieces.js";
import { TERMINATIONS } from "./moves.js";
import { nicknameProblem } from "./names.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";
import { optionsLine, seatName, variantName } from "./words.js";

const section = document.getElementById("lists");
const canPlay = section.dataset.canPlay === "1";
const me = section.dataset.me || "";
const isGuest = section.dataset.guest === "1"; // a guest cannot join a rated game

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// As lobby/views.py seat_text and rating_note: "alice 1523", "rated · 1300-1700".
function seatText(seat, rating) {
  if (!seat) return _("free");
  return rating ? `${seatName(seat)} ${rating}` : seatName(seat);
}

// A row's title: "classic · Ada (guest, Red) vs Wes 1523 (Blue)", a guest marked as one and
// an account's name a link to its profile (as lobby/views.py title_parts).
function titleParts(game) {
  const ratings = game.ratings || [null, null];
  const parts = [`${variantName(game.variant)} · `];
  game.seats.forEach((s, i) => {
    if (i) parts.push(` ${_("vs")} `);
    const mark = s && s.guest ? `${_("guest")}, ` : "";
    if (s && !s.guest && !s.computer) {
      parts.push(link(`/players/${encodeURIComponent(s.name)}/`, s.name, "profile-link"));
      parts.push(`${ratings[i] ? ` ${ratings[i]}` : ""} (${mark}${COLOR_NAMES[i]})`);
    } else parts.push(`${seatText(s, ratings[i])} (${mark}${COLOR_NAMES[i]})`);
  });
  return parts;
}

function ratingNote(game) {
  const [low, high] = game.rating_range || [null, null];
  let span = "";
  if (low != null && high != null) span = `${low}-${high}`;
  else if (low != null) span = `${low}+`;
  else if (high != null) span = fmt(_("up to %(high)s"), { high });
  const kind = game.rated ? _("rated") : span ? _("casual") : "";
  return [kind, span].filter(Boolean).join(" · ");
}

function link(href, text, cls = "") {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  if (cls) a.className = cls;
  return a;
}

function joinForm(game) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = `/games/${game.id}/join/`;
  form.className = "inline";
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = csrfToken();
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "join";
  button.textContent = _("Join");
  form.append(token, button);
  return form;
}

function row(game, kind) {
  const li = document.createElement("li");
  li.className = "game-row";
  li.dataset.gameId = game.id;
  const title = document.createElement("span");
  title.className = "game-title";
  title.append(...titleParts(game));
  if (game.seats.some((s) => s && s.bot)) {
    const mark = document.createElement("span");
    mark.className = "bot-mark";
    mark.textContent = "BOT";
    title.append(" ", mark);
  }
  const options = document.createElement("span");
  options.className = "game-options";
  options.textContent = optionsLine(game);
  const meta = document.createElement("span");
  meta.className = "game-meta";
  const actions = document.createElement("span");
  actions.className = "game-actions";
  const mine = me && game.seats.some((s) => s && s.name === me);
  if (kind === "waiting") {
    meta.textContent = _("waiting for an opponent");
    if (mine) actions.append(link(`/games/${game.id}/`, _("Open your game"), "open"));
    else {
      if (canPlay && game.rated && isGuest) {
        const only = document.createElement("span");
        only.className = "hint accounts-only";
        only.textContent = _("accounts only");
        actions.append(only);
      } else if (canPlay) actions.append(joinForm(game));
      actions.append(link(`/games/${game.id}/`, _("Watch"), "watch"));
    }
  } else if (kind === "live") {
    meta.textContent = `${game.status === "setup" ? _("setting up") : fmt(_("move %(ply)s"), { ply: game.ply })} · ${fmt(_("%(count)s watching"), { count: game.spectators })}`;
    meta.dataset.spectators = game.spectators;
    actions.append(link(`/games/${game.id}/`, mine ? _("Open your game") : _("Watch"), mine ? "open" : "watch"));
  } else {
    const r = game.result;
    if (!r) meta.textContent = game.status;
    else if (r.termination === "aborted" || r.termination === "abandoned") meta.textContent = TERMINATIONS[r.termination];
    else {
      const who = r.winner == null ? _("draw") : fmt(_("%(color)s won"), { color: COLOR_NAMES[r.winner] });
      meta.textContent = `${who} · ${TERMINATIONS[r.termination] || r.termination}`;
    }
    // A game cancelled before it began, or over before its first move, has nothing to replay.
    if (game.status !== "aborted" && game.ply > 0) actions.append(link(`/games/${game.id}/replay/`, _("Replay"), "replay"));
  }
  li.append(title, options);
  const note = ratingNote(game);
  if (note) {
    const rated = document.createElement("span");
    rated.className = "game-rating-note";
    rated.textContent = note;
    li.append(rated);
  }
  li.append(meta, actions);
  return li;
}

function emptyRow(kind) {
  const li = document.createElement("li");
  li.className = "none";
  li.textContent = { waiting: _("No game is waiting: create one!"), live: _("No game is being played."), finished: _("No finished game yet.") }[kind];
  return li;
}

// Rows that did not change stay the same nodes: a list pushed again (a count, another game)
// between a press and its release on Join would otherwise swallow the click.
function fill(id, games, kind) {
  const list = document.getElementById(id);
  const rows = games.length ? games.map((g) => row(g, kind)) : [emptyRow(kind)];
  const old = [...list.children];
  if (rows.length === old.length && rows.every((r, i) => r.isEqualNode(old[i]))) return;
  const kept = new Map(old.map((li) => [li.dataset.gameId, li]));
  list.replaceChildren(...rows.map((r) => {
    const before = kept.get(r.dataset.gameId);
    return before && before.isEqualNode(r) ? before : r;
  }));
}

// "Players are waiting for an opponent: join one", in the "Play a person" box.
const joinable = { games: 0, seeks: 0 };
function showJoinable() {
  const note = document.getElementById("waiting-note");
  if (!note) return;
  const n = joinable.games + joinable.seeks;
  note.hidden = n === 0;
  document.getElementById("waiting-count").textContent = String(n);
}

function fillAll(lists) {
  const count = document.getElementById("live-count");
  if (count) count.textContent = String(lists.live.length);
  joinable.games = lists.waiting.filter((g) => !(me && g.seats.some((s) => s && s.name === me))).length;
  showJoinable();
  fill("waiting", lists.waiting, "waiting");
  fill("live", lists.live, "live");
  fill("finished", lists.finished, "finished");
}

// A rule choice only for the variants it applies to: the two-squares limit (duel has none),
// the drawn army (mini only).
function bindChoice(select) {
  const applies = new Set((select.dataset.variants || "").split(" "));
  const update = () => {
    const variant = document.querySelector("#create input[name=variant]:checked")?.value;
    select.disabled = !applies.has(variant);
    if (select.disabled) select.value = "";
  };
  document.querySelectorAll("#create input[name=variant]").forEach((input) => input.addEventListener("change", update));
  update();
}

function bindCreateForm() {
  ["two-squares", "army"].map((id) => document.getElementById(id)).filter(Boolean).forEach(bindChoice);
}

bindCreateForm();
bindNickname();

// A visitor without a name types one once: the nickname field goes along with whichever play
// form they send (the server signs them on, then plays). A bad name is explained beside the
// field, before anything is sent.
function bindNickname() {
  const field = document.getElementById("nickname");
  const error = document.getElementById("nickname-error");
  if (!field || !error) return;
  const check = () => {
    const problem = nicknameProblem(field.value.trim());
    error.textContent = problem;
    error.hidden = !problem;
    field.setAttribute("aria-invalid", problem ? "true" : "false");
    return !problem;
  };
  field.addEventListener("input", () => {
    if (!error.hidden) check();
  });
  document.addEventListener("submit", (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement) || !form.querySelector("input[name=then]") && form.id !== "sign-on") return;
    if (!check()) {
      ev.preventDefault();
      field.focus();
      return;
    }
    if (form.id === "sign-on") return;
    let carried = form.querySelector("input[name=nickname]");
    if (!carried) {
      carried = document.createElement("input");
      carried.type = "hidden";
      carried.name = "nickname";
      form.append(carried);
    }
    carried.value = field.value.trim();
  });
}

// The open seeks: whoever pressed "Play now" and waits; refreshed while the page is seen.
async function refreshSeeks() {
  const list = document.getElementById("seeks");
  if (!list || document.hidden) return;
  try {
    const response = await fetch(section.dataset.seeksUrl, { headers: { Accept: "application/json" } });
    if (response.ok) fillSeeks(list, (await response.json()).seeks);
  } catch {
    /* the next round tries again */
  }
}

function fillSeeks(list, seeks) {
  joinable.seeks = seeks.filter((s) => !s.mine).length;
  showJoinable();
  if (!seeks.length) {
    const none = document.createElement("li");
    none.className = "none";
    none.textContent = _("Nobody right now: press “Play now” and you will be the one waiting.");
    if (!(list.children.length === 1 && list.firstElementChild.isEqualNode(none))) list.replaceChildren(none);
    return;
  }
  list.replaceChildren(...seeks.map(seekRow));
}

function seekRow(s) {
  const li = document.createElement("li");
  li.className = "game-row seek-row";
  li.dataset.variant = s.variant;
  li.dataset.time = s.time_control;
  const title = document.createElement("span");
  title.className = "game-title";
  title.textContent = s.rating ? `${s.name} ${s.rating}` : s.name;
  if (!s.rating) {
    const mark = document.createElement("span");
    mark.className = "guest-mark";
    mark.textContent = `(${_("guest")})`;
    title.append(" ", mark);
  }
  const options = document.createElement("span");
  options.className = "game-options";
  options.textContent = `${variantName(s.variant)} · ${s.time_control === "untimed" ? _("untimed") : s.time_control}`;
  const actions = document.createElement("span");
  actions.className = "game-actions";
  if (s.mine) {
    const you = document.createElement("span");
    you.className = "hint";
    you.textContent = _("you");
    actions.append(you);
  } else {
    const form = document.createElement("form");
    form.method = "post";
    form.className = "inline seek-accept";
    form.action = canPlay ? "/players/play-now/" : "/nickname/";
    const fields = { csrfmiddlewaretoken: csrfToken(), variant: s.variant, time_control: s.time_control };
    if (!canPlay) fields.then = "play_now";
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    const button = document.createElement("button");
    button.type = "submit";
    button.className = "join";
    button.textContent = _("Play them");
    form.append(button);
    actions.append(form);
  }
  li.append(title, options, actions);
  return li;
}

setInterval(refreshSeeks, 4000);

const snapshot = document.getElementById("lobby-data");
if (snapshot) fillAll(JSON.parse(snapshot.textContent));

new ReconnectingSocket(section.dataset.wsPath, {
  onFrame: (frame) => {
    if (frame.type !== "lobby") return;
    fillAll(frame);
    section.dataset.loaded = "1";
  },
});
