// An opponent joining, a draw or rematch offer, the game's end and one's move: a sound, a mark
// on the tab's title and on its icon until the page is used again, and, when the tab is hidden
// and the player asked for it, a notification from the browser. Each can be turned off; the
// choices are remembered in this browser.

import { ALERT_TEXT, alertsBetween, markedTitle } from "./attention.js";
import { playCues } from "./sounds.js";

const NOTIFY_KEY = "stratego.notify";
let pending = null; // the alert the title and the icon show until the page is used
let onChange = () => {};

export function notificationsOn() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "on" && "Notification" in window && Notification.permission === "granted";
  } catch {
    return false;
  }
}

function setNotifications(on) {
  try {
    localStorage.setItem(NOTIFY_KEY, on ? "on" : "off");
  } catch {
    /* private mode: not remembered */
  }
}

// before/after: the page's state around a frame; changed(): redraw the title.
export function attend(before, after) {
  const alerts = alertsBetween(before, after);
  if (!alerts.length) return;
  const [first] = alerts;
  playCues(alerts.filter((a) => a !== "turn")); // (the turn's sound comes with the move's)
  pending = first;
  setIcon(true);
  onChange();
  if (document.hidden && notificationsOn()) {
    try {
      new Notification(ALERT_TEXT[first], { body: document.title, tag: "stratego-game" });
    } catch {
      /* a browser that refuses notifications from this page */
    }
  }
}

export function titleFor(title) {
  return markedTitle(pending, title);
}

function seen() {
  if (!pending) return;
  pending = null;
  setIcon(false);
  onChange();
}

const ICON = document.getElementById("favicon");
const PLAIN = ICON?.href;
function setIcon(marked) {
  if (!ICON) return;
  if (!marked) {
    ICON.href = PLAIN;
    return;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#24301f"/><path d="M8 28V4h2.5v1.5H25l-4 6 4 6H10.5V28z" fill="#e9c46a"/><circle cx="24" cy="24" r="7" fill="#d62828" stroke="#fff" stroke-width="2"/></svg>`;
  ICON.href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

// The page's switch for notifications; redraw(): the title again when a mark goes.
export function bindNotifications(toggle, redraw) {
  onChange = redraw;
  for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, seen, { passive: true });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) setTimeout(seen, 1500); // long enough to see what changed
  });
  if (!toggle) return;
  if (!("Notification" in window)) {
    toggle.closest("label").hidden = true;
    return;
  }
  toggle.checked = notificationsOn();
  toggle.addEventListener("change", async () => {
    if (toggle.checked && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      toggle.checked = answer === "granted";
    }
    setNotifications(toggle.checked);
  });
}
