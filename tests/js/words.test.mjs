// The lobby's options line and a computer's name, worded by the client from the codes the
// server sends (English here: node has no catalogue).
import { test } from "node:test";
import assert from "node:assert/strict";
import { optionsLine, seatName, variantName } from "../../static/ui/words.js";

test("a row's options from its time control and rules", () => {
  assert.equal(optionsLine({ time_control: { id: "10+5" }, rules: { two_squares_limit: 3 } }), "10+5 · two-squares 3");
  assert.equal(optionsLine({ time_control: null, rules: {} }), "untimed");
  assert.equal(optionsLine({ time_control: null, rules: { army: [[10, 1]], two_squares_limit: 5 } }), "untimed · a drawn army · two-squares 5");
});

test("the computer's seat is named by its level; a person's name stays as it is", () => {
  assert.equal(seatName({ name: "Computer (hard)", computer: true, level: "hard" }), "Computer (hard)");
  assert.equal(seatName({ name: "Computer (expert)" }), "Computer (expert)"); // a replay's stored name
  assert.equal(seatName({ name: "Computer (godlike)" }), "Computer (godlike)");
  assert.equal(seatName({ name: "anna", guest: true }), "anna");
  assert.equal(seatName(null), "");
  assert.equal(variantName("classic"), "classic");
});

test("in another language the words come from the catalogue", () => {
  const words = { "Computer (%(level)s)": "Computer (%(level)s)", untimed: "zonder klok" };
  globalThis.window = { gettext: (t) => words[t] ?? t, pgettext: (c, t) => (c === "computer level" && t === "hard" ? "moeilijk" : t) };
  try {
    assert.equal(optionsLine({ time_control: null, rules: {} }), "zonder klok");
  } finally {
    delete globalThis.window;
  }
});
