// A table's page: one WebSocket to the server; every state it sends redraws the page.
// The seat's token is in the link's fragment (#seat=TOKEN), which browsers never send to a server
// in a request or a Referer: the page hands it over itself, in its hello message.
"use strict";
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.hash.slice(1)).get("seat");
const $ = (id) => document.getElementById(id);
let socket = null, state = null, opened = null, retry = 500;
const ownerKey = localStorage.getItem("treehouse-owner:" + tableId);  // kept by the lobby page that started this table

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else $("message").textContent = "✗ not connected: wait a moment, the page reconnects by itself";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.onopen = () => { retry = 500; $("connection").textContent = ""; socket.send(JSON.stringify({ type: "hello", token: token })); };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") { draw(message); }
    else if (message.type === "error") { $("message").textContent = "✗ " + message.message; }
    else if (message.type === "hint") { $("hint").textContent = message.lines.join("\n"); }
  };
  socket.onclose = () => {
    if (state && (state.over || state.ended)) { document.body.dataset.connected = "no"; return; }  // nothing more will happen here
    $("connection").textContent = "Connection lost: reconnecting…";
    document.body.dataset.connected = "no";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 3000);
  };
  document.body.dataset.connected = "yes";
}

function moveButton(words, notation, index, warning) {
  const button = document.createElement("button");
  button.className = "move" + (warning ? " warning" : "");
  button.dataset.index = index;
  const label = document.createElement("span");
  label.textContent = words;
  button.appendChild(label);
  if (notation && notation !== words) {
    const code = document.createElement("span"); code.className = "notation"; code.textContent = notation; button.appendChild(code);
  }
  return button;
}

function drawMoves() {
  const moves = $("moves");
  moves.replaceChildren();
  const decision = state.decision;
  const mine = decision && decision.seat === state.you;
  $("typed").hidden = !mine;
  $("hint-button").hidden = !mine;
  if (!mine) return;
  if (opened !== null && opened < decision.entries.length) {
    const entry = decision.entries[opened];
    const back = document.createElement("button");
    back.className = "back"; back.textContent = "← back to the first question";
    back.onclick = () => { opened = null; drawMoves(); };
    moves.appendChild(back);
    const head = document.createElement("p"); head.textContent = entry.words + ". Then?"; moves.appendChild(head);
    for (const part of entry.moves) {
      const b = moveButton(part.words, part.notation, part.index, false);
      b.onclick = () => send({ type: "move", ply: decision.ply, index: part.index });
      moves.appendChild(b);
    }
    return;
  }
  decision.entries.forEach((entry, number) => {
    const single = entry.moves.length === 1;
    const b = moveButton(entry.words, single ? entry.notation : entry.notation + " ▸", single ? entry.moves[0].index : "", entry.warning);
    b.onclick = single ? () => send({ type: "move", ply: decision.ply, index: entry.moves[0].index }) : () => { opened = number; drawMoves(); };
    moves.appendChild(b);
  });
}

// A panel per seat (the variant's seat_panel, as on th replay --html's page) and the picture's legend.
function drawPanels() {
  const panels = $("panels");
  panels.replaceChildren();
  for (const seat of state.seats) {
    const box = document.createElement("div");
    box.className = "seat" + (seat.number === state.you ? " mine" : "") + (seat.out ? " out" : "");
    const head = document.createElement("h3");
    head.textContent = seat.name + (seat.number === state.you ? " (you)" : "") + (seat.out ? " · out" : "");
    box.appendChild(head);
    const table = document.createElement("table");
    for (const [label, value] of seat.panel) {
      const row = table.insertRow(); row.insertCell().textContent = label; row.insertCell().textContent = value;
    }
    box.appendChild(table);
    panels.appendChild(box);
  }
  $("legend").textContent = state.legend;
  $("legend-box").hidden = !state.legend;
}

function draw(next) {
  const newDecision = !state || !state.decision || !next.decision || state.decision.ply !== next.decision.ply;
  state = next;
  if (newDecision) { opened = null; $("hint").textContent = ""; if (state.you) $("message").textContent = ""; }  // a watcher keeps why it watches
  document.title = `${state.header} · treehouse`;
  $("title").textContent = state.title;
  const me = state.you ? state.seats[state.you - 1] : null;
  $("you").textContent = !me ? "You are watching (a spectator's page cannot move)."
    : me.out ? `You are Player ${state.you}. You are out: your seat has no more moves this game.` : `You are Player ${state.you}.`;
  document.body.dataset.out = me && me.out ? "yes" : "no";
  drawPanels();
  $("status").textContent = state.header;
  const board = $("board");
  if (state.board.svg) { board.innerHTML = state.board.svg; }  // the variant's own drawing (treehouse_render_svg: no scripts)
  else { const pre = document.createElement("pre"); pre.textContent = state.board.text; board.replaceChildren(pre); }
  const log = $("log");
  const since = state.you ? state.last_decision[String(state.you)] : undefined;
  log.replaceChildren();
  for (const line of state.log) {
    const div = document.createElement("div");
    div.textContent = line.text;
    div.className = (line.event ? "event" : "") + (since !== undefined && line.at > since ? " new" : "");
    log.appendChild(div);
  }
  log.scrollTop = log.scrollHeight;
  const decision = state.decision;
  let roll = "";
  if (state.failure) roll = "The game stopped: " + state.failure;
  else if (decision && decision.seat === state.you) roll = "Your move. " + decision.roll;
  else if (decision) roll = decision.roll_seen;  // the face's meaning is worded to the mover ("your Stack"): theirs only
  else if (state.thinking) roll = `${state.thinking} is thinking…`;
  $("roll").textContent = roll;
  $("over").textContent = state.ended ? `This table is closed: ${state.ended}.` : (state.over || "");
  $("takeback").hidden = !(decision && state.takeback_seat && state.takeback_seat === state.you);
  $("close-table").hidden = !ownerKey || Boolean(state.over || state.ended);  // only in the browser that started it from the lobby
  $("rule").textContent = "Takeback: " + state.takeback_rule + " Moves marked ⚠ cost the mover." + (state.you ? " Highlighted: what happened since your last decision." : "");
  document.body.dataset.ply = decision ? decision.ply : "";
  document.body.dataset.turn = decision && decision.seat === state.you ? "mine" : (state.over || state.ended ? "over" : "theirs");
  drawMoves();
}

$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  if (state && state.decision) send({ type: "move", ply: state.decision.ply, notation: $("notation").value });
  $("notation").value = "";
});
$("hint-button").onclick = () => { if (state && state.decision) { $("hint").textContent = "Thinking…"; send({ type: "hint", ply: state.decision.ply }); } };
$("takeback").onclick = () => send({ type: "takeback" });
$("close-table").onclick = async () => {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/close`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ owner: ownerKey }) });
  if (!response.ok) $("message").textContent = "✗ " + (await response.json()).error;
};
connect();
