// On a phone the panels below the board (battle, chat, moves, pieces) open from a bar at the
// bottom of the screen, over the page's lower part, so the board stays in view. The chat's
// button counts the messages not yet seen; the battle's marks a battle not yet looked at.
// On a wider screen the panels stand beside the board and the bar is not shown.

import { unreadCount } from "./attention.js";

const dock = document.getElementById("dock");
const phone = window.matchMedia("(max-width: 899px)");
let open = null; // the button whose panels are open

function panels(button) {
  return button.dataset.panel.split(" ").map((id) => document.getElementById(id)).filter(Boolean);
}

function setOpen(button) {
  for (const b of dock.querySelectorAll("button")) {
    const on = b === button;
    b.setAttribute("aria-expanded", String(on));
    for (const panel of panels(b)) panel.classList.toggle("docked-open", on);
  }
  open = button;
  if (button) markSeen(button);
}

function markSeen(button) {
  if (button.id === "dock-chat") {
    seenChat = chatCount();
    showUnread();
  }
  if (button.id === "dock-battle") {
    seenBattle = battleKey();
    button.querySelector(".mark").hidden = true;
  }
}

const chatList = document.getElementById("chat-list");
const battle = document.getElementById("battle");
const chatCount = () => (chatList ? chatList.childElementCount : 0);
const battleKey = () => (battle && !battle.hidden ? battle.getAttribute("aria-label") || "" : "");
let seenChat = chatCount();
let seenBattle = battleKey();

// The chat is seen when its panel is open (phone) or on screen (a wide window).
function chatSeen() {
  const panel = document.getElementById("chat-panel");
  if (!panel) return true;
  if (phone.matches) return panel.classList.contains("docked-open");
  const box = panel.getBoundingClientRect();
  return box.top < window.innerHeight && box.bottom > 0;
}

function showUnread() {
  const badge = document.getElementById("chat-unread");
  const n = unreadCount(chatCount(), seenChat);
  badge.hidden = n === 0;
  badge.textContent = String(n);
  const heading = document.querySelector("#chat-panel h2");
  if (heading) heading.dataset.unread = n ? String(n) : "";
}

function watch() {
  if (chatSeen()) seenChat = chatCount();
  showUnread();
  const key = battleKey();
  const button = document.getElementById("dock-battle");
  button.hidden = !key && !seenBattle;
  if (key && key !== seenBattle) {
    if (open === button || !phone.matches) seenBattle = key;
    else button.querySelector(".mark").hidden = false;
  }
}

// A phone's setup: the board scrolled into view just above the tray (once, when it opens).
let setupShown = false;
function showSetup() {
  const panel = document.getElementById("setup-panel");
  if (setupShown || !phone.matches || !panel || panel.hidden) return;
  setupShown = true;
  const area = document.getElementById("board-area");
  area.style.scrollMarginBottom = `${panel.offsetHeight + dock.offsetHeight + 8}px`;
  area.scrollIntoView({ block: "end" });
}

if (dock) {
  const setupPanel = document.getElementById("setup-panel");
  if (setupPanel) new MutationObserver(showSetup).observe(setupPanel, { attributes: true, attributeFilter: ["hidden"] });
  dock.addEventListener("click", (ev) => {
    const button = ev.target.closest("button");
    if (button) setOpen(open === button ? null : button);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && open) setOpen(null);
  });
  if (chatList) new MutationObserver(watch).observe(chatList, { childList: true });
  if (battle) new MutationObserver(watch).observe(battle, { attributes: true, childList: true });
  window.addEventListener("scroll", watch, { passive: true });
  phone.addEventListener("change", () => setOpen(null));
  watch();
}
