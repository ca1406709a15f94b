// node --test tests/js: what asks for a player's attention (static/ui/attention.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { alertsBetween, markedTitle, unreadCount } from "../../static/ui/attention.js";

const seats = (both) => (both ? [{ name: "a" }, { name: "b" }] : [{ name: "a" }, null]);
const page = (fields = {}, game = {}) => ({
  role: 0,
  game: { status: "setup", seats: seats(true), draw_offer: null, ...game },
  view: { phase: "setup", turn: 0 },
  rematch: { offer: null },
  ...fields,
});

test("an opponent joining, a draw or rematch offer, the end and the turn ask for attention", () => {
  assert.deepEqual(alertsBetween(page({}, { status: "waiting", seats: seats(false) }), page()), ["joined"]);
  const playing = page({ view: { phase: "playing", turn: 1 } }, { status: "playing" });
  assert.deepEqual(alertsBetween(playing, page({ view: { phase: "playing", turn: 1 } }, { status: "playing", draw_offer: 1 })), ["draw"]);
  assert.deepEqual(alertsBetween(playing, { ...playing, view: { phase: "playing", turn: 0 } }), ["turn"]);
  const finished = page({}, { status: "finished" });
  assert.deepEqual(alertsBetween(playing, finished), ["over"]);
  assert.deepEqual(alertsBetween(finished, { ...finished, rematch: { offer: 1 } }), ["rematch"]);
});

test("nothing for one's own offers, for a spectator or on the first state", () => {
  const playing = page({ view: { phase: "playing", turn: 1 } }, { status: "playing" });
  assert.deepEqual(alertsBetween(playing, page({ view: { phase: "playing", turn: 1 } }, { status: "playing", draw_offer: 0 })), []);
  assert.deepEqual(alertsBetween({ ...playing, role: 2 }, { ...page({}, { status: "finished" }), role: 2 }), []);
  assert.deepEqual(alertsBetween({ role: 0, game: null }, playing), []);
});

test("the title's mark and the unread count", () => {
  assert.equal(markedTitle("joined", "Stratego"), "● Your opponent has joined · Stratego");
  assert.equal(markedTitle(null, "Your move · Stratego"), "Your move · Stratego");
  assert.equal(unreadCount(3, 1), 2);
  assert.equal(unreadCount(1, 3), 0);
});
