// node --test tests/js: the game page's reducer (static/ui/reduce.js), without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  BATTLE_MS,
  NOTICE_MS,
  canAbort,
  expire,
  graveyard,
  initialState,
  moveLabel,
  reduce,
  rematchStage,
  tabTitle,
  withChatHistory,
} from "../../static/ui/reduce.js";

const game = (fields = {}) => ({ id: "g1", status: "playing", ply: 0, seats: [{ name: "a" }, { name: "b" }], spectators: 1, ...fields });
const view = (fields = {}) => ({ phase: "playing", turn: 0, ply: 0, last_move: null, army: { 10: 1, 2: 2, 12: 1 }, captured: [[], []], ...fields });
const battleMove = { ply: 3, color: 0, from: 12, to: 17, notation: "C3-C4", battle: { attacker: 10, defender: 1, result: "attacker" } };

test("a state frame sets role, game, clock and view and leaves the input untouched", () => {
  const before = initialState();
  const frozen = JSON.stringify([...before.moves]);
  const after = reduce(before, { type: "state", role: 1, game: game(), view: view(), clock: null }, 50);
  assert.equal(after.role, 1);
  assert.equal(after.game.id, "g1");
  assert.equal(after.clockAt, 50);
  assert.equal(before.role, 2);
  assert.equal(before.view, null);
  assert.equal(JSON.stringify([...before.moves]), frozen);
});

test("a move event is added to the list and cues a sound; a battle shows on the board for a while", () => {
  let s = reduce(initialState({ role: 1 }), { type: "state", role: 1, game: game(), view: view({ turn: 0 }) }, 0);
  s = reduce(s, { type: "event", version: 9, event: { kind: "move", ...battleMove } }, 1000);
  assert.equal(s.moves.get(3), s.battleMove);
  assert.deepEqual(s.cues, ["battle"]);
  assert.equal(s.boardBattle.until, 1000 + BATTLE_MS);
  s = reduce(s, { type: "event", version: 9, event: { kind: "noop" }, view: view({ turn: 1, ply: 3 }) }, 1100);
  assert.deepEqual(s.cues, ["battle", "turn"], "Blue's turn begins: 'your turn'");
  assert.equal(expire(s, 1000 + BATTLE_MS + 1).boardBattle, null);
});

test("the offerer is told that a draw was declined; the decliner is not", () => {
  const red = reduce(initialState({ role: 0 }), { type: "event", event: { kind: "draw_declined", color: 1 } }, 10);
  assert.equal(red.notices[0].text, "Your draw offer was declined.");
  assert.equal(red.notices[0].until, 10 + NOTICE_MS);
  const blue = reduce(initialState({ role: 1 }), { type: "event", event: { kind: "draw_declined", color: 1 } }, 10);
  assert.equal(blue.notices.length, 0);
  assert.equal(expire(red, 10 + NOTICE_MS).notices.length, 0, "a notice goes away by itself");
});

test("errors become notices, not a line that stays", () => {
  const s = reduce(initialState(), { type: "error", code: "not_your_turn", message: "Not your turn." }, 0);
  assert.deepEqual(s.notices.map((n) => [n.text, n.kind]), [["Not your turn.", "error"]]);
});

test("chat: shown lines, hidden spectator lines counted, history merged by version", () => {
  let s = initialState({ role: 0 });
  s = reduce(s, { type: "event", version: 4, event: { kind: "chat", room: "players", role: 1, name: "b", text: "<script>x</script>" } });
  s = reduce(s, { type: "event", version: 5, event: { kind: "chat", room: "spectators", hidden: true } });
  assert.deepEqual(s.chat.map((m) => m.text), ["<script>x</script>"]);
  assert.equal(s.hiddenChat, 1);
  s = withChatHistory(s, [{ version: 4, room: "players", text: "<script>x</script>" }, { version: 5, room: "spectators", text: "psst" }]);
  assert.deepEqual(s.chat.map((m) => m.version), [4, 5]);
  assert.equal(s.hiddenChat, 0);
});

test("rematch: offer, answer, decline, open", () => {
  const over = { type: "state", role: 0, game: game({ status: "finished" }), view: view() };
  let red = reduce(initialState(), over);
  assert.equal(rematchStage(red), "offer");
  red = reduce(red, { type: "event", event: { kind: "rematch_offered", color: 0 } });
  assert.equal(rematchStage(red), "sent");
  let blue = reduce(reduce(initialState(), { ...over, role: 1 }), { type: "event", event: { kind: "rematch_offered", color: 0 } });
  assert.equal(rematchStage(blue), "answer");
  blue = reduce(blue, { type: "event", event: { kind: "rematch_declined", color: 1 } });
  assert.equal(rematchStage(blue), "offer");
  const watcher = reduce(reduce(initialState(), { ...over, role: 2 }), { type: "event", event: { kind: "rematch", game: "g2" } });
  assert.equal(rematchStage(watcher), "open");
  assert.equal(watcher.rematch.game, "g2");
  assert.equal(rematchStage(reduce(initialState(), { ...over, game: game() })), null, "not while the game is on");
});

test("abort is open until both sides have moved", () => {
  const at = (status, ply, role = 0) => reduce(initialState(), { type: "state", role, game: game({ status, ply }), view: view() });
  assert.equal(canAbort(at("setup", 0)), true);
  assert.equal(canAbort(at("playing", 1)), true);
  assert.equal(canAbort(at("playing", 2)), false);
  assert.equal(canAbort(at("setup", 0, 2)), false, "not for an observer");
  assert.equal(canAbort(at("finished", 0)), false);
  assert.equal(canAbort(at("waiting", 0)), false, "nobody joined: Cancel this game instead");
});

test("graveyard: per rank, what each side had, lost and has left", () => {
  const rows = graveyard(view({ captured: [[2, 2], [10]] }));
  assert.deepEqual(rows.map((r) => r.rank), [10, 2, 12]);
  assert.deepEqual(rows[0], { rank: 10, total: 1, fallen: [0, 1], left: [1, 0] });
  assert.deepEqual(rows[1], { rank: 2, total: 2, fallen: [2, 0], left: [0, 2] });
});

test("move labels: full move numbers past 100, Red's with a dot, Blue's with an ellipsis", () => {
  assert.equal(moveLabel(1), "1.");
  assert.equal(moveLabel(2), "1…");
  assert.equal(moveLabel(253), "127.");
  assert.equal(moveLabel(254), "127…");
});

test("the tab title says Your move on this player's turn only", () => {
  const s = reduce(initialState(), { type: "state", role: 0, game: game(), view: view({ turn: 0 }) });
  assert.equal(tabTitle(s, "Stratego"), "Your move · Stratego");
  assert.equal(tabTitle({ ...s, role: 1 }, "Stratego"), "Stratego");
});
