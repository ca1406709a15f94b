// node --test tests/js: what a click, drop, drag or key means (static/ui/input.js), from the
// state alone: which squares are selectable and targets, and the messages an input sends.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as input from "../../static/ui/input.js";
import { initialState } from "../../static/ui/reduce.js";

// A 5x5 board: Red (0) sets up on squares 0-9, Blue (1) on 15-24.
const R = (rank) => ({ color: 0, rank });
const B = (rank) => ({ color: 1, rank });
const variantInfo = { setup_squares: [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [15, 16, 17, 18, 19, 20, 21, 22, 23, 24]], army: { 10: 1, 2: 2, 12: 1 } };

function setupState(fields = {}, board = {}) {
  const cells = Array(25).fill(null);
  for (const [sq, piece] of Object.entries(board)) cells[sq] = piece;
  return initialState({
    role: 0,
    variantInfo,
    selected: null,
    trayRank: null,
    game: { status: "setup" },
    view: { phase: "setup", ready: [false, false], board: cells, remaining: { 10: 0, 2: 2, 12: 1 }, width: 5 },
    ...fields,
  });
}

function playState(fields = {}) {
  const cells = Array(25).fill(null);
  cells[7] = R(2);
  cells[8] = R(12);
  cells[12] = B(10);
  return initialState({
    role: 0,
    variantInfo,
    selected: null,
    game: { status: "playing" },
    view: { phase: "playing", turn: 0, board: cells, legal_moves: [[7, 6], [7, 2], [7, 12]], width: 5 },
    ...fields,
  });
}

test("in the setup: a tray piece goes to an empty square; without one, an error and nothing sent", () => {
  const s = setupState({ trayRank: 2 });
  assert.deepEqual(input.squareInput(s, 3).send, [{ type: "place", square: 3, rank: 2 }]);
  const none = input.squareInput(setupState(), 3);
  assert.deepEqual(none.send, []);
  assert.equal(none.error, "Choose a piece in the tray first.");
  assert.deepEqual(input.squareInput(setupState(), 20), { patch: {}, send: [], error: null }); // not my area
});

test("in the setup: a placed piece is chosen, then moved to an empty square or swapped", () => {
  const s = setupState({}, { 1: R(10), 2: R(2) });
  assert.deepEqual(input.squareInput(s, 1).patch, { selected: 1, trayRank: null });
  const chosen = { ...s, selected: 1 };
  assert.deepEqual(input.squareInput(chosen, 5).send, [{ type: "remove", square: 1 }, { type: "place", square: 5, rank: 10 }]);
  assert.deepEqual(input.squareInput(chosen, 2).send, [
    { type: "remove", square: 1 },
    { type: "remove", square: 2 },
    { type: "place", square: 1, rank: 2 },
    { type: "place", square: 2, rank: 10 },
  ]);
  assert.deepEqual(input.squareInput(chosen, 20), { patch: { selected: null }, send: [], error: null });
  assert.deepEqual(input.squareInput(chosen, 1).patch, { selected: null });
});

test("once ready, or as an observer, the board sends nothing", () => {
  const ready = setupState({ trayRank: 2, view: { ...setupState().view, ready: [true, false] } });
  assert.deepEqual(input.squareInput(ready, 3).send, []);
  assert.equal(input.canSetUp(ready), false);
  const watcher = setupState({ role: 2, trayRank: 2 });
  assert.deepEqual(input.squareInput(watcher, 3).send, []);
  assert.equal(input.setupSquares(watcher).size, 0);
});

test("Delete sends a piece back only for the player's own piece in the setup", () => {
  const s = setupState({ selected: 1 }, { 1: R(10), 16: B(2) });
  assert.deepEqual(input.removeInput(s, 1), { patch: { selected: null }, send: [{ type: "remove", square: 1 }], error: null });
  assert.deepEqual(input.removeInput(s, 16).send, []);
  assert.deepEqual(input.removeInput(s, null).send, []);
  assert.deepEqual(input.removeInput(playState(), 7).send, []);
});

test("in play: the movable pieces and a selected piece's targets come from view.legal_moves", () => {
  const s = playState();
  assert.deepEqual([...input.movableSquares(s)], [7]);
  assert.deepEqual(input.squareInput(s, 8).patch, { selected: null }); // the flag cannot move
  const chosen = { ...s, ...input.squareInput(s, 7).patch };
  assert.equal(chosen.selected, 7);
  assert.deepEqual([...input.boardMarks(chosen).targets].sort(), [12, 2, 6]);
  assert.deepEqual(input.squareInput(chosen, 12), { patch: { selected: null }, send: [{ type: "move", from: 7, to: 12 }], error: null });
  assert.deepEqual(input.squareInput(chosen, 7).patch, { selected: null }); // chosen again: let go
  assert.deepEqual(input.squareInput(chosen, 17).send, []); // not a legal destination
});

test("not my turn: nothing is selectable, nothing sent", () => {
  const s = playState({ view: { ...playState().view, turn: 1 } });
  assert.equal(input.movableSquares(s).size, 0);
  assert.deepEqual(input.squareInput({ ...s, selected: 7 }, 12).send, []);
  assert.equal(input.dragPayload(s, 7), null);
});

test("drag and drop: only draggable squares carry a payload; a drop moves, places or swaps", () => {
  const play = playState();
  assert.equal(input.dragPayload(play, 7), "sq:7");
  assert.equal(input.dragPayload(play, 8), null);
  assert.deepEqual(input.dragStartInput(play, 7).patch, { selected: 7 });
  assert.deepEqual(input.dropInput(play, "sq:7", 6).send, [{ type: "move", from: 7, to: 6 }]);
  assert.deepEqual(input.dropInput(play, "sq:7", 17).send, []);
  const setup = setupState({}, { 1: R(10), 2: R(2) });
  assert.deepEqual([...input.draggableSquares(setup)], [1, 2]);
  assert.deepEqual(input.dropInput(setup, "rank:12", 4).send, [{ type: "place", square: 4, rank: 12 }]);
  assert.deepEqual(input.dropInput(setup, "rank:12", 1).send, []); // occupied
  assert.equal(input.dropInput(setup, "sq:1", 2).send.length, 4); // a swap
  assert.deepEqual(input.dropInput(setup, "junk", 2).send, []);
});

test("the tray's choice: kept while pieces of it are left, then none (never chosen by itself)", () => {
  const s = setupState({ trayRank: 10 });
  assert.equal(input.trayAfterView(s), null); // no Marshal left: nothing is chosen
  assert.equal(input.trayAfterView({ ...s, trayRank: 12 }), 12);
  assert.equal(input.trayAfterView(playState({ trayRank: 2 })), null);
  assert.deepEqual(input.escapeInput().patch, { selected: null, trayRank: null });
  assert.equal(input.totalArmy(s), 4);
});
