// The players' view page: shows what the server pushes over its websocket (never polls), asks
// for a PC's private view (its state, what the game shows its player, its cards, the scene)
// with the PC's code, and keeps the last good view when the link drops.
"use strict";

const $ = (id) => document.getElementById(id);
// wantHand: open the remembered PC when the server (re)connects; "Hide my character" clears it.
const state = {
  view: null, key: "", announced: "", hand: null, asked: null, wantHand: true, retry: 1000, full: false,
};

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function clock() {
  return new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// --- storage: the contrast choice, and each campaign's remembered PC and code ------------------
function stored(name) {
  try { return window.localStorage.getItem(name); } catch (e) { return null; }
}
function store(name, value) {
  try {
    if (value === null) window.localStorage.removeItem(name);
    else window.localStorage.setItem(name, value);
  } catch (e) { /* private browsing: remember nothing */ }
}
function handKey() { return state.key ? "tableside.hand." + state.key : ""; }
function rememberedHand() {
  const name = handKey();
  if (!name) return null;
  try {
    const found = JSON.parse(stored(name) || "null");
    return found && Number.isInteger(found.pc) && typeof found.code === "string" ? found : null;
  } catch (e) { return null; }
}

// --- the view ----------------------------------------------------------------------------------
function showView(view) {
  state.view = view;
  $("headline").textContent = view.headline;
  const context = [view.campaign, view.game, view.fight, view.time].filter(Boolean);
  $("context").textContent = context.join(" · ");
  document.title = view.headline + " · Tableside";
  if (state.announced && state.announced !== view.headline) {
    $("announce").textContent = view.headline;  // the live region: the turn changed
  }
  state.announced = view.headline;

  const notices = $("notices");
  notices.replaceChildren(...(view.notices || []).map((line) => el("p", "", line)));
  // Under "the GM's session has ended" the link is up but nothing follows the GM.
  $("connection").textContent = view.following
    ? "Connected: the view follows the GM."
    : "Connected to the GM's computer: the view follows the GM again when the session opens.";

  const order = $("order");
  order.replaceChildren(...view.rows.map((row) => orderRow(row, view.order_title)));
  $("empty").hidden = view.rows.length > 0 || !view.order_title;
  showHandSection(view);
}

function orderRow(row, title) {
  const item = el("li", row.side === "pc" ? "pc" : "npc");
  const top = el("div", "row-top");
  top.append(el("span", "name", row.name));
  top.append(el("span", "side", row.side === "pc" ? "PC" : "foe"));
  // A PC out of the fight stays in the order, its state in words for everyone to read.
  if (row.state) {
    item.classList.add("out");
    top.append(el("span", "state", row.state));
  }
  if (row.current) {
    item.classList.add("acting");
    item.setAttribute("aria-current", "step");
    top.append(el("span", "now", "▶ acting now"));
  }
  // A bare number is an initiative: say so ("Init 14"); "3/5 AP" and "acted" say themselves.
  if (row.order) {
    const bare = /^-?\d+$/.test(row.order);
    top.append(el("span", "order", bare && title ? title + " " + row.order : row.order));
  }
  item.append(top);
  if (row.health) {
    const health = el("div", "health");
    health.append(el("span", "visually-hidden", "Health: "), document.createTextNode(row.health));
    item.append(health);
  }
  if (row.conditions) item.append(el("div", "conditions", "Conditions: " + row.conditions));
  for (const line of row.extras || []) item.append(el("div", "extra", line));
  return item;
}

// --- the private hand --------------------------------------------------------------------------
function showHandSection(view) {
  const section = $("hand");
  section.hidden = view.hands === "none" || !view.hands;
  if (section.hidden) return;
  $("hand-setup").hidden = view.hands !== "not set up";
  $("hand-show").disabled = view.hands !== "ready";
  const select = $("hand-pc");
  const wanted = JSON.stringify(view.party || []);
  if (select.dataset.party !== wanted) {
    const chosen = select.value;
    select.replaceChildren(...(view.party || []).map((pc) => {
      const option = el("option", "", pc.name);
      option.value = String(pc.id);
      return option;
    }));
    if (chosen) select.value = chosen;
    select.dataset.party = wanted;
  }
  if (view.key && view.key !== state.key) {
    state.key = view.key;
    const remembered = rememberedHand();
    if (remembered && state.wantHand) {
      state.asked = remembered;
      send({ type: "unlock", pc: remembered.pc, code: remembered.code });
    }
  }
}

function openForm() {
  $("hand-form").hidden = false;
  $("hand-open").hidden = true;
  $("hand-message").textContent = "";
  $("hand-code").focus();
}
function closeForm() {
  $("hand-form").hidden = true;
  $("hand-open").hidden = !!state.hand;
}

function showHand(message) {
  state.hand = message;
  state.wantHand = true;
  $("hand-name").textContent = message.name;
  $("hand-state").textContent = message.state ? "State: " + message.state : "";
  $("hand-state").hidden = !message.state;
  const lists = $("hand-lists");
  lists.replaceChildren();
  for (const hand of message.hands) {
    lists.append(el("h4", "", hand.title));
    if (hand.cards.length) {
      const list = el("ul");
      list.append(...hand.cards.map((card) => el("li", "", card)));
      lists.append(list);
    } else {
      lists.append(el("p", "", "none"));
    }
  }
  $("hand-problem").textContent = message.problem || "";
  $("hand-problem").hidden = !message.problem;
  $("hand-cards").hidden = false;
  $("hand-message").textContent = "";
  $("hand-form").hidden = true;
  $("hand-open").hidden = true;
}

function hideHand() {
  state.hand = null;
  state.wantHand = false;
  $("hand-cards").hidden = true;
  $("hand-lists").replaceChildren();
  $("hand-name").textContent = "";
  $("hand-open").hidden = false;
  send({ type: "lock" });
}

// --- the link to the server --------------------------------------------------------------------
let socket = null;

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  socket = ws;
  ws.onopen = () => {
    state.retry = 1000;
    state.key = "";  // a new link: the server knows no hand of this page until asked again
    $("connection").textContent = "Connected to the GM's computer.";  // the view says more
  };
  ws.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "view") showView(message);
    else if (message.type === "hand") {
      if (state.asked) store(handKey(), JSON.stringify(state.asked));
      showHand(message);
    } else if (message.type === "refused") {
      state.hand = null;
      $("hand-cards").hidden = true;
      $("hand-lists").replaceChildren();
      $("hand-message").textContent = message.message;
      if (message.reason !== "locked out") store(handKey(), null);  // a code worth keeping
      if ($("hand-form").hidden) openForm();
    } else if (message.type === "closed") {
      state.hand = null;
      store(handKey(), null);
      $("hand-cards").hidden = true;
      $("hand-lists").replaceChildren();
      $("hand-message").textContent = message.message;
      $("hand-open").hidden = false;
    } else if (message.type === "full") {
      state.full = true;
      $("headline").textContent = "The players' view is full";
      $("notices").replaceChildren(el("p", "", message.message));
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    const when = clock();
    const line = state.full
      ? "Trying again in 15 s."
      : `Lost the link to the GM's computer at ${when}: showing the last view; reconnecting…`;
    $("connection").textContent = line;
    if (!state.full && state.view) {
      const kept = (state.view.notices || []).map((text) => el("p", "", text));
      $("notices").replaceChildren(el("p", "", line), ...kept);
    }
    const wait = state.full ? 15000 : state.retry;
    state.retry = Math.min(state.retry * 2, 10000);
    state.full = false;
    setTimeout(connect, wait);
  };
}

function setContrast(on) {
  document.documentElement.classList.toggle("contrast", on);
  document.documentElement.classList.toggle("normal", !on);
  $("contrast").setAttribute("aria-pressed", on ? "true" : "false");
}

document.addEventListener("DOMContentLoaded", () => {
  const choice = stored("tableside.contrast");
  if (choice !== null) setContrast(choice === "on");
  $("contrast").addEventListener("click", () => {
    const on = $("contrast").getAttribute("aria-pressed") !== "true";
    setContrast(on);
    store("tableside.contrast", on ? "on" : "off");
  });
  $("hand-open").addEventListener("click", openForm);
  $("hand-cancel").addEventListener("click", () => { $("hand-message").textContent = ""; closeForm(); });
  $("hand-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const pc = Number.parseInt($("hand-pc").value, 10);
    const code = $("hand-code").value.trim();
    if (!Number.isInteger(pc) || !code) return;
    state.asked = { pc, code };
    $("hand-code").value = "";
    send({ type: "unlock", pc, code });
  });
  $("hand-hide").addEventListener("click", hideHand);
  $("hand-forget").addEventListener("click", () => { store(handKey(), null); hideHand(); });
  connect();
});
