// Sounds for a move, a battle and "your turn", made with the Web Audio API (no files to
// fetch). Off by default; the choice is remembered in this browser.

const SOUND_KEY = "stratego.sound";
const TONES = {
  move: [[660, 0.06]],
  battle: [[220, 0.12], [170, 0.18]],
  turn: [[523, 0.1], [784, 0.14]],
};
let context = null;

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    /* private mode: not remembered */
  }
}

export function playCues(cues) {
  if (!soundOn() || typeof AudioContext === "undefined") return;
  // One sound per batch: a battle outranks "your turn", which outranks a plain move.
  const cue = ["battle", "turn", "move"].find((c) => cues.includes(c));
  if (!cue) return;
  context ??= new AudioContext();
  let at = context.currentTime;
  for (const [freq, length] of TONES[cue]) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.15, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + length);
    osc.connect(gain).connect(context.destination);
    osc.start(at);
    osc.stop(at + length);
    at += length;
  }
}
