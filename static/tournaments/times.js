// Times in the browser's own time zone: every <time datetime> of an event page is rewritten
// in local time, and the event form's start (sent as local time) carries the browser's offset
// from UTC, so the server stores the moment the person meant.
const DAY = { weekday: "short", day: "numeric", month: "short" };
const CLOCK = { hour: "2-digit", minute: "2-digit" };

export function localTimes(root = document) {
  for (const el of root.querySelectorAll("time[datetime]")) {
    const at = new Date(el.getAttribute("datetime"));
    if (Number.isNaN(at.getTime())) continue;
    const style = el.dataset.style === "clock" ? CLOCK : { ...DAY, ...CLOCK };
    el.textContent = at.toLocaleString(undefined, style);
  }
}

function pad(n) {
  return String(n).padStart(2, "0");
}

export function localStartField() {
  const field = document.getElementById("t-start");
  const offset = document.getElementById("t-tz");
  if (!field || !offset) return;
  const utc = field.dataset.utc ? new Date(field.dataset.utc) : null;
  if (utc && !Number.isNaN(utc.getTime())) {
    field.value = `${utc.getFullYear()}-${pad(utc.getMonth() + 1)}-${pad(utc.getDate())}` +
      `T${pad(utc.getHours())}:${pad(utc.getMinutes())}`;
  }
  offset.value = String(new Date().getTimezoneOffset());
}

localTimes();
localStartField();
