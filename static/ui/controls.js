// The game page's buttons (setup, resign, draw, claim, numbering, copy link) and the saved
// setups. Each button sends a message or changes the page's state through `page`; what
// is shown is drawn by static/ui/play.js from the state.

import { copyLink, bindNumberingSwitch } from "./common.js";
import { canSetUp, myColor, removeInput } from "./input.js";
import { SetupStore, layoutFromBoard, placementsOf } from "./setups.js";
import { gettext as _, interpolate as fmt } from "./i18n.js";

// The note while a saved setup loads (play.js says "Setup loaded." once it is placed).
export const LOADING = () => _("Loading the saved setup…");

const $ = (id) => document.getElementById(id);

// page: {state, send(message), act(action), update(patch), error(text)}
export function bindControls(page) {
  const { send, update } = page;
  const click = (id, handler) => $(id)?.addEventListener("click", handler);
  click("btn-random", () => send({ type: "random_setup" }));
  click("btn-clear", () => send({ type: "clear_setup" }));
  click("btn-ready", () => send({ type: "ready" }));
  click("btn-remove", () => page.act(removeInput(page.state, page.state.selected)));
  click("btn-resign", () => {
    update({ confirmResign: true });
    $("btn-resign-yes").focus();
  });
  click("btn-resign-no", () => {
    update({ confirmResign: false });
    $("btn-resign").focus();
  });
  click("btn-resign-yes", () => {
    update({ confirmResign: false });
    send({ type: "resign" });
  });
  click("btn-draw", () => send({ type: "offer_draw" }));
  click("btn-draw-accept", () => send({ type: "accept_draw" }));
  click("btn-draw-decline", () => send({ type: "decline_draw" }));
  click("btn-claim", () => {
    update({ claiming: true });
    send({ type: "claim_victory" });
  });
  bindNumberingSwitch($("numbering"), (value) => update({ numbering: value }));
  click("btn-copy-link", (ev) => copyLink(ev.currentTarget));
  click("btn-share-copy", (ev) => copyLink(ev.currentTarget, $("share-url").value, $("share-url")));
  bindSavedSetups(page);
}

// Saved setups: on the server for accounts, in this browser for guests (static/ui/setups.js).
function bindSavedSetups(page) {
  const state = page.state;
  const store = new SetupStore(state.game.variant, state.isAccount);
  const refresh = async () => {
    const setups = await store.list();
    const select = $("saved-setups");
    select.replaceChildren(
      ...setups.map((setup) => {
        const option = document.createElement("option");
        option.value = JSON.stringify(setup.layout);
        option.textContent = setup.name;
        return option;
      }),
    );
    $("btn-load").disabled = setups.length === 0;
    select.disabled = setups.length === 0;
  };
  $("btn-save").addEventListener("click", async () => {
    const { width, height, board } = state.view;
    const layout = layoutFromBoard(board, myColor(state), width, height, state.variantInfo.setup_rows);
    const name = $("setup-name").value.trim() || fmt(_("setup %(when)s"), { when: new Date().toLocaleString() });
    try {
      await store.save(name, layout);
      page.update({ setupNote: fmt(state.isAccount ? _("Saved “%(name)s” to your account.") : _("Saved “%(name)s” in this browser."), { name }) });
      refresh();
    } catch (err) {
      page.error(err.message);
    }
  });
  $("btn-load").addEventListener("click", () => {
    const value = $("saved-setups").value;
    if (!value || !canSetUp(state)) return;
    const { width, height } = state.view;
    const placements = placementsOf(JSON.parse(value), myColor(state), width, height);
    // The whole army in one message: it replaces what is placed so far (docs/protocol.md).
    const pieces = Object.fromEntries(placements.map((p) => [String(p.square), p.rank]));
    page.send({ type: "setup", pieces });
    page.update({ setupNote: LOADING() });
  });
  refresh();
}
