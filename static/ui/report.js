// Reporting a chat message (POST /games/<id>/report/, docs/moderation.md): a button on each
// other person's line opens the dialog; the answer (sent, or why not) is said in it.

import { gettext as _, interpolate as fmt } from "./i18n.js";

const dialog = () => document.getElementById("report-dialog");
let reported = null; // the message being reported

export function canReport(message) {
  const me = document.getElementById("game")?.dataset.me || "";
  return Boolean(dialog()) && message.name !== me; // (names are unique: docs/moderation.md)
}

export function reportButton(message) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "link report-button";
  button.textContent = _("Report");
  button.setAttribute("aria-label", fmt(_("Report %(name)s's message"), { name: message.name }));
  button.addEventListener("click", () => open(message));
  return button;
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function open(message) {
  reported = message;
  document.getElementById("report-quote").textContent = `${message.name}: ${message.text}`;
  document.getElementById("report-result").textContent = "";
  document.getElementById("report-send").disabled = false;
  dialog().showModal();
}

async function send(ev) {
  ev.preventDefault();
  if (!reported) return;
  const result = document.getElementById("report-result");
  const gameId = document.getElementById("game").dataset.gameId;
  const body = {
    version: reported.version,
    reason: document.getElementById("report-reason").value,
    details: document.getElementById("report-details").value,
  };
  let answer;
  try {
    const response = await fetch(`/games/${gameId}/report/`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    });
    answer = await response.json();
  } catch {
    answer = { message: _("The report could not be sent: try again.") };
  }
  if (answer.report) {
    result.textContent = _("Thank you: a moderator will look at it.");
    document.getElementById("report-send").disabled = true;
  } else {
    result.textContent = answer.message || _("The report could not be sent.");
  }
}

if (dialog()) {
  document.getElementById("report-form").addEventListener("submit", send);
  document.getElementById("report-cancel").addEventListener("click", () => dialog().close());
}
