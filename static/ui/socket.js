// A websocket that reconnects and resyncs: it keeps the last version it has seen
// and reconnects with ?version=<n> (docs/protocol.md, "Versions and resync").

export function wsUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

export class ReconnectingSocket {
  // onFrame(frame), onStatus("open" | "closed" | "gone")
  constructor(path, { onFrame, onStatus, versioned = false } = {}) {
    this.path = path;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.versioned = versioned;
    this.version = null;
    this.delay = 500;
    this.queue = [];
    this.closedForGood = false;
    this.connect();
    this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
  }

  connect() {
    const query = this.versioned && this.version != null ? `?version=${this.version}` : "";
    const ws = new WebSocket(wsUrl(this.path + query));
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 500;
      this.onStatus?.("open");
      const pending = this.queue;
      this.queue = [];
      pending.forEach((msg) => ws.send(msg));
    });
    ws.addEventListener("message", (ev) => {
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (typeof frame.version === "number") this.version = frame.version;
      this.onFrame?.(frame);
    });
    ws.addEventListener("close", (ev) => {
      if (ev.code === 4404 || ev.code === 4003) { // no such game; banned from the site
        this.closedForGood = true;
        this.onStatus?.("gone");
        return;
      }
      this.onStatus?.("closed");
      if (this.closedForGood) return;
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
  }

  send(message) {
    const text = JSON.stringify(message);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else if (message.type !== "ping") this.queue.push(text);
  }

  // Send several messages spaced out, to stay well under the server's flood limit.
  sendPaced(messages, gapMs = 60) {
    messages.forEach((msg, i) => setTimeout(() => this.send(msg), i * gapMs));
  }
}
