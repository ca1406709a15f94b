// Live lobby lists over /ws/lobby/ (docs/protocol.md, "Lobby socket").

const section = document.getElementById("lists");

function entry(game, extra) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `/games/${game.id}/`;
  a.textContent = game.id;
  const seats = game.seats.map((s) => (s ? s.name : "—")).join(" vs ");
  li.append(a, ` ${game.variant} · ${seats}${extra(game)}`);
  return li;
}

function fill(id, games, extra) {
  const ul = document.getElementById(id);
  ul.replaceChildren(...(games.length ? games.map((g) => entry(g, extra)) : [Object.assign(document.createElement("li"), { textContent: "none" })]));
}

function connect(retry = 0) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}${section.dataset.wsPath}`);
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type !== "lobby") return;
    fill("waiting", msg.waiting, () => "");
    fill("live", msg.live, (g) => ` · ${g.status} · ${g.spectators} watching`);
    fill("finished", msg.finished, (g) => (g.result ? ` · ${g.result.termination}` : ""));
    retry = 0;
  };
  socket.onclose = () => setTimeout(() => connect(retry + 1), Math.min(10000, 500 * 2 ** retry));
}

connect();
