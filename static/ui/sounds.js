// Sounds for a move, a battle, "your turn", an opponent joining, a draw or rematch offer and
// the game's end, made with the Web Audio API (no files to fetch). On unless muted; the choice
// is remembered in this browser. What was played is listed in window.strategoSounds (tests).

const SOUND_KEY = "stratego.sound";
const TONES = {
  move: [[660, 0.06]],
  battle: [[220, 0.12], [170, 0.18]],
  turn: [[523, 0.1], [784, 0.14]],
  joined: [[523, 0.09], [659, 0.09], [784, 0.16]],
  draw: [[587, 0.12], [587, 0.12]],
  rematch: [[659, 0.1], [880, 0.14]],
  over: [[784, 0.12], [659, 0.12], [523, 0.2]],
};
// One sound per batch, the most important first.
const ORDER = ["joined", "over", "draw", "rematch", "battle", "turn", "move"];
const played = [];
if (typeof window !== "undefined") window.strategoSounds = { played };
let context = null;

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
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
  if (!soundOn()) return;
  const cue = ORDER.find((c) => cues.includes(c));
  if (!cue) return;
  played.push(cue);
  if (typeof AudioContext === "undefined") return;
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
