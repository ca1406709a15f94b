// Minimal board client for /games/<id>/ (plain ES module, no build step).
// Speaks docs/protocol.md; the UI teammate replaces it with the full interface.

const SYMBOLS = { 1: "S", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "M", 11: "B", 12: "F" };
const COLOR_NAMES = ["Red", "Blue"];

const root = document.getElementById("game");
const boardEl = document.getElementById("board");
const trayEl = document.getElementById("tray");
const statusEl = document.getElementById("status");
const errorEl = document.getElementById("error");
const logEl = document.getElementById("log");

const client = { socket: null, version: null, role: 2, game: null, view: null, selected: null, trayRank: null, retry: 0 };

export function send(message) {
  if (client.socket && client.socket.readyState === WebSocket.OPEN) {
    client.socket.send(JSON.stringify(message));
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = client.version === null ? "" : `?version=${client.version}`;
  const socket = new WebSocket(`${proto}://${location.host}${root.dataset.wsPath}${query}`);
  client.socket = socket;
  socket.onopen = () => { client.retry = 0; };
  socket.onmessage = (event) => handle(JSON.parse(event.data));
  socket.onclose = (event) => {
    if ([4404, 4008, 1009].includes(event.code)) {
      statusEl.textContent = `disconnected (${event.code})`;
      return;
    }
    statusEl.textContent = "reconnecting…";
    setTimeout(connect, Math.min(10000, 500 * 2 ** client.retry++));
  };
}

function handle(msg) {
  if (msg.type === "state") {
    Object.assign(client, { version: msg.version, role: msg.role, game: msg.game, view: msg.view });
    render();
  } else if (msg.type === "event") {
    client.version = msg.version;
    addLog(describe(msg.event));
    if (msg.view) {
      Object.assign(client, { view: msg.view, game: msg.game, role: msg.view.viewer });
      render();
    }
  } else if (msg.type === "spectators") {
    if (client.game) { client.game.spectators = msg.count; renderStatus(); }
  } else if (msg.type === "error") {
    errorEl.textContent = `${msg.code}: ${msg.message}`;
  }
}

function describe(ev) {
  const who = COLOR_NAMES[ev.color] ?? "";
  switch (ev.kind) {
    case "seated": return `${ev.name} sits down as ${COLOR_NAMES[ev.seat]}`;
    case "placed": return `${who} placed a piece`;
    case "removed": return `${who} took a piece back`;
    case "random_setup": return `${who} filled the setup at random`;
    case "cleared": return `${who} cleared the setup`;
    case "ready": return ev.playing ? `${who} is ready: the game begins` : `${who} is ready`;
    case "move": {
      const b = ev.battle;
      return b ? `${ev.ply}. ${ev.notation}: ${SYMBOLS[b.attacker]} attacks ${SYMBOLS[b.defender]}, ${b.result} stays` : `${ev.ply}. ${ev.notation}`;
    }
    case "draw_offered": return `${who} offers a draw`;
    case "draw_declined": return `${who} declines the draw`;
    case "game_over": return `game over: ${ev.termination}${ev.winner === null ? " (draw)" : `, ${COLOR_NAMES[ev.winner]} wins`}`;
    default: return ev.kind;
  }
}

function addLog(text) {
  const li = document.createElement("li");
  li.textContent = text;
  logEl.prepend(li);
}

function renderStatus() {
  const g = client.game;
  const v = client.view;
  const seats = g.seats.map((s, i) => `${COLOR_NAMES[i]}: ${s ? s.name : "(free)"}`).join(" · ");
  const you = client.role === 2 ? "watching" : `you are ${COLOR_NAMES[client.role]}`;
  let phase = g.status;
  if (g.status === "playing") phase = `playing, ${COLOR_NAMES[v.turn]} to move (ply ${v.ply})`;
  if (g.result) phase = `over: ${g.result.termination}${g.result.winner === null ? " (draw)" : `, ${COLOR_NAMES[g.result.winner]} wins`}`;
  statusEl.textContent = `${seats} · ${you} · ${phase} · ${g.spectators} watching`;
}

function squareOrder(view) {
  const rows = [...Array(view.height).keys()];
  const cols = [...Array(view.width).keys()];
  if (client.role === 1) return { rows, cols: cols.reverse() };
  return { rows: rows.reverse(), cols };
}

function render() {
  errorEl.textContent = "";
  renderStatus();
  renderBoard();
  renderTray();
}

function renderBoard() {
  const view = client.view;
  const { rows, cols } = squareOrder(view);
  const targets = new Set(view.legal_moves.filter(([a]) => a === client.selected).map(([, b]) => b));
  boardEl.style.gridTemplateColumns = `repeat(${view.width}, 44px)`;
  boardEl.replaceChildren();
  for (const row of rows) {
    for (const col of cols) {
      const sq = row * view.width + col;
      const cell = document.createElement("button");
      cell.className = "cell";
      cell.dataset.square = sq;
      const piece = view.board[sq];
      if (view.lakes.includes(sq)) cell.classList.add("lake");
      if (piece) {
        cell.classList.add(piece.color === 0 ? "red" : "blue");
        cell.textContent = piece.rank === null ? "?" : SYMBOLS[piece.rank];
      }
      if (sq === client.selected) cell.classList.add("selected");
      if (targets.has(sq)) cell.classList.add("target");
      cell.addEventListener("click", () => clickSquare(sq));
      boardEl.append(cell);
    }
  }
}

function renderTray() {
  trayEl.replaceChildren();
  const remaining = client.view.remaining;
  if (!remaining || client.view.phase !== "setup") return;
  for (const [rank, count] of Object.entries(remaining)) {
    if (count <= 0) continue;
    const b = document.createElement("button");
    b.textContent = `${SYMBOLS[rank]} ×${count}`;
    b.dataset.rank = rank;
    if (Number(rank) === client.trayRank) b.classList.add("selected");
    b.addEventListener("click", () => { client.trayRank = Number(rank); renderTray(); });
    trayEl.append(b);
  }
}

function clickSquare(sq) {
  const view = client.view;
  if (client.role === 2) return;
  const piece = view.board[sq];
  if (view.phase === "setup") {
    if (piece && piece.color === client.role) send({ type: "remove", square: sq });
    else if (!piece && client.trayRank !== null) send({ type: "place", square: sq, rank: client.trayRank });
    return;
  }
  if (view.phase !== "playing") return;
  if (client.selected !== null && view.legal_moves.some(([a, b]) => a === client.selected && b === sq)) {
    send({ type: "move", from: client.selected, to: sq });
    client.selected = null;
  } else if (piece && piece.color === client.role) {
    client.selected = sq;
  } else {
    client.selected = null;
  }
  renderBoard();
}

for (const button of document.querySelectorAll("#controls [data-action]")) {
  button.addEventListener("click", () => {
    const action = button.dataset.action;
    if (action === "resign" && !confirm("Resign this game?")) return;
    send({ type: action });
  });
}

setInterval(() => send({ type: "ping" }), 25000);
connect();
