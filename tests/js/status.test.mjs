// node --test tests/js: the status line's words (static/ui/status.js), from the state alone.
import { test } from "node:test";
import assert from "node:assert/strict";

import { initialState, reduce } from "../../static/ui/reduce.js";
import { statusText } from "../../static/ui/status.js";

const seats = [{ name: "ann" }, { name: "bob" }];
const frame = (role, game, view) => ({ type: "state", role, game: { seats, ply: 0, ...game }, view: { width: 5, ready: [false, false], turn: 0, ...view } });

test("a player in setup is told how many pieces are left; an observer that they are watching", () => {
  const player = reduce(initialState(), frame(0, { status: "setup" }, { phase: "setup", remaining: { 10: 1, 12: 1 } }));
  assert.match(statusText(player), /Place your pieces: 2 left/);
  const watcher = reduce(initialState(), frame(2, { status: "setup" }, { phase: "setup", remaining: null }));
  assert.equal(statusText(watcher), "Watching: the players are placing their pieces.");
});

test("in play: whose move it is, the square of a selected piece in words", () => {
  const mine = reduce(initialState(), frame(0, { status: "playing" }, { phase: "playing", turn: 0 }));
  assert.equal(statusText(mine), "Your move: choose one of your pieces.");
  assert.match(statusText({ ...mine, selected: 7 }), /the piece on C2/);
  assert.match(statusText({ ...mine, role: 1 }), /The opponent \(Red\) is thinking/);
});

test("a free seat: the page's join buttons are named", () => {
  const s = reduce(initialState(), frame(2, { status: "waiting" }, { phase: "setup" }));
  assert.equal(statusText(s, { join: ["Play as Blue"], nicknameForm: false }), "A seat is free: press Play as Blue to join.");
  assert.equal(statusText(s), "Watching: waiting for a second player.");
});

test("the end: the result in words", () => {
  const s = reduce(initialState(), frame(1, { status: "finished", result: { winner: 0, termination: "flag_captured" } }, { phase: "finished" }));
  assert.equal(statusText(s), "Red (ann) wins: Blue's flag was captured.");
  const gone = reduce(initialState(), frame(1, { status: "aborted", result: { winner: null, termination: "abandoned" } }, { phase: "playing" }));
  assert.match(statusText(gone), /abandoned/);
});
