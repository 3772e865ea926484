// The playtest lab's page: the form comes from the server (the variant's options model), what it sends
// is checked there as --set text, and the runs arrive over the WebSocket as they play.
"use strict";
const key = new URLSearchParams(location.hash.slice(1)).get("key");
const $ = (id) => document.getElementById(id);
let socket = null, form = null, wanted = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") node.textContent = value; else if (value !== null && value !== undefined) node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}
const text = (value) => (typeof value === "boolean" ? String(value) : value === null || value === undefined ? "" : String(value));
const question = () => document.querySelector("input[name=question]:checked").value;

function range(option) {
  if (option.kind === "choice") return option.choices.join(" | ");
  const low = option.minimum ?? option.exclusiveMinimum, high = option.maximum ?? option.exclusiveMaximum;
  if (low !== undefined || high !== undefined) return `${option.kind}, ${low ?? "…"} to ${high ?? "…"}`;
  return option.kind;
}

function input(option, field) {
  // one control per option and column, holding --set text; the server checks it
  let control;
  if (option.kind === "boolean" || option.kind === "choice") {
    control = el("select");
    for (const choice of option.kind === "boolean" ? [true, false] : option.choices) control.append(el("option", { value: text(choice), text: text(choice) }));
  } else {
    control = el("input", { type: "text", size: 10, inputmode: option.kind === "text" ? null : "numeric" });
  }
  control.value = text(option.value);
  control.dataset.field = field;
  control.dataset.original = text(option.value);
  control.setAttribute("aria-label", `${option.name} (${field.split(".")[0].toUpperCase()})`);
  return control;
}

function showForm(data) {
  form = data;
  $("description").textContent = `${data.variant}: ${data.description}`;
  const body = $("options").tBodies[0];
  body.replaceChildren();
  for (const option of data.options) {
    const name = el("td", { class: "name" }, el("b", { text: option.name }), " ", el("span", { class: "range", text: range(option) }),
      el("div", { class: "description", text: option.description }));
    const cells = ["a", "b"].map((column) => el("td", { class: column === "b" ? "col-b" : null }, input(option, `${column}.${option.name}`),
      el("div", { class: "mistake", "data-for": `${column}.${option.name}` })));
    body.append(el("tr", { "data-option": option.name }, name, ...cells));
  }
  for (const [index, select] of [$("sweep-option-0"), $("sweep-option-1")].entries()) {
    select.replaceChildren(...(index ? [el("option", { value: "", text: "(no second option)" })] : []), ...data.options.map((o) => el("option", { value: o.name, text: o.name })));
  }
  const rules = $("house_rules");
  rules.replaceChildren();
  if (!data.house_rules.length) rules.append(el("p", { class: "note", text: "No house rule fits this variant." }));
  for (const rule of data.house_rules) {
    const box = el("div", { class: "house", "data-rule": rule.name });
    const toggles = ["a", "b"].map((column) => {
      const check = el("input", { type: "checkbox", "data-rule-on": column });
      check.checked = rule.on; check.dataset.original = String(rule.on);
      return el("label", { class: column === "b" ? "col-b" : null }, check, column === "a" ? " on" : " on in B", " ");
    });
    box.append(...toggles, el("b", { text: rule.name }), el("div", { class: "description", text: rule.description }));
    for (const option of rule.options) {
      box.append(el("div", { class: "opts" }, `${option.name} (${range(option)}): `, input(option, `a.${rule.name}.${option.name}`),
        el("span", { class: "col-b" }, " in B: ", input(option, `b.${rule.name}.${option.name}`)), el("div", { class: "description", text: option.description })));
    }
    rules.append(box);
  }
  const seats = $("seats");
  if (!seats.children.length) {
    const best = data.bots[data.bots.length - 1].name;
    for (let n = 0; n < data.players.usual; n++) addSeat(n === 0 ? "greedy" : best);
  }
}

function addSeat(bot) {
  const seats = $("seats"), index = seats.children.length;
  const choose = el("select", { "data-field": `seats.${index}`, "aria-label": `seat ${index + 1}` });
  for (const b of form.bots) choose.append(el("option", { value: b.name, text: b.name, title: b.description }));
  choose.value = form.bots.some((b) => b.name === bot) ? bot : form.bots[0].name;
  const remove = el("button", { type: "button", text: "remove" });
  remove.onclick = () => { if (seats.children.length > 1) { seats.lastChild.remove(); } };
  const options = el("input", { class: "bot-options", size: 16, placeholder: "options, e.g. depth=2", "aria-label": `seat ${index + 1}'s bot options` });
  seats.append(el("div", { class: "seat" }, `Seat ${index + 1} `, choose, " ", options, " ", index ? remove : "", el("span", { class: "mistake", "data-for": `seats.${index}` })));
}

function houseRules(column) {
  // the house rules on in a column, as specs (name, or name(key=value, ...)), and whether they differ from `than`
  const specs = [];
  for (const box of document.querySelectorAll("#house_rules .house")) {
    if (!box.querySelector(`[data-rule-on=${column}]`).checked) continue;
    const options = [...box.querySelectorAll(`[data-field^="${column}.${box.dataset.rule}."]`)].map((c) => `${c.dataset.field.split(".").pop()}=${c.value.trim()}`);
    specs.push(options.length ? `${box.dataset.rule}(${options.join(", ")})` : box.dataset.rule);
  }
  return specs;
}

function collect() {
  const a = {}, b = {}, compare = question() === "compare";
  for (const control of document.querySelectorAll("#options [data-field^='a.']")) {
    if (control.value.trim() !== control.dataset.original) a[control.dataset.field.slice(2)] = control.value.trim();
  }
  if (compare) {
    for (const control of document.querySelectorAll("#options [data-field^='b.']")) {
      const name = control.dataset.field.slice(2), inA = document.querySelector(`[data-field="a.${name}"]`).value.trim();
      if (control.value.trim() !== inA) b[name] = control.value.trim();
    }
  }
  const original = form.house_rules.filter((r) => r.on).map((r) => r.options.length ? `${r.name}(${r.options.map((o) => `${o.name}=${text(o.value)}`).join(", ")})` : r.name);
  const rulesA = houseRules("a"), rulesB = houseRules("b");
  if (JSON.stringify(rulesA) !== JSON.stringify(original)) a.house_rules = JSON.stringify(rulesA);
  if (compare && JSON.stringify(rulesB) !== JSON.stringify(rulesA)) b.house_rules = JSON.stringify(rulesB);
  return { type: "run", question: question(), rule_set: form.rule_set, a, b, seats: [...document.querySelectorAll("#seats .seat")].map((seat) => {
    // a bot with options is written as th's --seat has it: search(depth=2)
    const bot = seat.querySelector("select").value, options = seat.querySelector(".bot-options").value.trim();
    return options ? `${bot}(${options})` : bot;
  }),
    games: $("games").value.trim(), seed: $("seed").value.trim(), sprt: compare && $("sprt").checked,
    sweep: question() !== "sweep" ? [] : [0, 1].filter((i) => $(`sweep-option-${i}`).value && (i === 0 || $(`sweep-values-${i}`).value.trim()))
      .map((i) => ({ option: $(`sweep-option-${i}`).value, values: $(`sweep-values-${i}`).value.trim() })) };
}

function markChanges() {
  // A's values that differ from the rule set's, and B's that differ from A's, stand out
  for (const control of document.querySelectorAll("#options [data-field], #house_rules [data-field]")) {
    const [column, ...rest] = control.dataset.field.split(".");
    const than = column === "a" ? control.dataset.original : document.querySelector(`[data-field="a.${rest.join(".")}"]`).value;
    control.classList.toggle("changed", control.value.trim() !== than.trim());
  }
  for (const check of document.querySelectorAll("[data-rule-on]")) {
    const than = check.dataset.ruleOn === "a" ? check.dataset.original === "true" : check.closest(".house").querySelector("[data-rule-on=a]").checked;
    check.parentElement.classList.toggle("changed", check.checked !== than);
  }
}

function clearMistakes() {
  for (const node of document.querySelectorAll(".mistake")) node.textContent = "";
  for (const node of document.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
}

function showMistakes(mistakes) {
  clearMistakes();
  for (const [field, words] of Object.entries(mistakes)) {
    // a house rule's own line goes under the house rules; any other field's next to its control
    const column = field.split(".")[0], where = document.querySelector(`.mistake[data-for="${field}"]`) ||
      document.querySelector(`.mistake[data-for="${field.startsWith(column + ".house_rules") ? column + ".house_rules" : column}"]`);
    (where || $("message")).textContent = "✗ " + words;
    const control = document.querySelector(`[data-field="${field}"]`) || (field === "games" || field === "seed" ? $(field) : null);
    if (control) control.setAttribute("aria-invalid", "true");
  }
}

function number(value) { return typeof value === "number" ? value.toFixed(3) : "n/a"; }

function showRuns(data) {
  const list = $("runs");
  list.replaceChildren();
  list.append(el("p", { class: "note", text: `${data.runs.length ? "" : "No runs yet. "}One plays at a time, ${data.where}; ${data.queue} may wait.` }));
  for (const run of data.runs) {
    const plan = run.plan, box = el("div", { class: "run", "data-run": run.id, "data-status": run.status, "data-done": run.done });
    const what = plan.question === "compare" ? `compare ${plan.rule_set} A/B (B: ${plan.overrides_b.join(", ")})${plan.sprt ? " with an SPRT" : ""}`
      : plan.question === "sweep" ? `sweep ${plan.rule_set} over ${plan.params.map((p) => p.replace(/^rules\./, "")).join(" and ")}` : `simulate ${plan.rule_set}`;
    const games = plan.question === "sweep" ? `${plan.games} games a point` : `${plan.games} games`;
    box.append(el("h3", { text: `${run.status}: ${what}, ${plan.seats.join(" vs ")}, ${games}, seed ${plan.seed}` }));
    if (plan.overrides.length) box.append(el("div", { class: "note", text: `A (and B): ${plan.overrides.join(", ")}` }));
    if (run.status === "playing" || run.status === "queued") {
      const eta = run.eta === null ? "" : ` · about ${Math.ceil(run.eta)} s to go`;
      box.append(el("div", {}, el("progress", { max: run.total, value: run.done }), " ", el("span", { class: "progress", text: `${run.done} of ${run.total} games${eta}` })));
      const cancel = el("button", { type: "button", class: "cancel", text: "Cancel" });
      cancel.onclick = () => send({ type: "cancel", run: run.id });
      box.append(cancel);
    }
    if (run.message) box.append(el("div", { class: "note", text: run.message }));
    if (run.estimate.length) {
      const heading = run.status === "finished" ? "Result" : "So far";
      const label = plan.question === "compare" ? "B − A (paired, 95% interval)" : "value (95% interval)";
      const table = el("table", {}, el("tr", {}, el("th", { text: heading }), el("th", { text: label }), el("th")));
      for (const row of run.estimate) {
        table.append(el("tr", { class: row.significant ? "significant" : null, "data-name": row.name, "data-value": row.value },
          el("td", { text: row.name }), el("td", { text: number(row.value) }), el("td", { text: `[${number(row.low)}, ${number(row.high)}]${row.significant ? " *" : ""}` })));
      }
      box.append(table);
      if (plan.question === "compare") box.append(el("div", { class: "note", text: "* significant after Holm's correction over all the comparison's rows (the report has them all)" }));
    }
    if (run.sprt) {
      const t = run.sprt, verdict = run.status === "finished" ? `: ${t.verdict}` : "";
      box.append(el("div", { class: "sprt", text: `SPRT on ${t.question} (${t.asks}) after ${t.pairs} pairs: LLR ${t.llr.toFixed(2)}, bounds [${t.lower.toFixed(2)}, ${t.upper.toFixed(2)}]${verdict}` }));
    }
    if (run.report) box.append(el("div", {}, el("a", { href: run.report, class: "report", text: "the report" }), " · ", el("a", { href: run.json, class: "json", text: "its JSON" })));
    box.append(el("div", {}, "The same with th: ", el("code", { text: run.command })));
    list.append(box);
  }
}

function send(message) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(message)); }

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/lab/ws`);
  socket.onopen = () => { document.body.dataset.connected = "yes"; $("connection").textContent = ""; send({ type: "hello", key }); };
  socket.onclose = () => { document.body.dataset.connected = "no"; $("connection").textContent = "Not connected: trying again…"; setTimeout(connect, 1500); };
  socket.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "welcome") {
      const select = $("rule_set");
      if (!select.options.length) {
        for (const name of data.rule_sets) select.append(el("option", { value: name, text: name }));
        select.value = data.rule_sets.includes("fences") ? "fences" : data.rule_sets[0];
      }
      if (!form) send({ type: "form", rule_set: select.value });  // once: a reconnection keeps what was typed
    } else if (data.type === "form") {
      showForm(data);
      document.body.dataset.ready = "yes";
    } else if (data.type === "lab") {
      showRuns(data);
    } else if (data.type === "mistakes") {
      showMistakes(data.mistakes);
      $("submitted").textContent = "Nothing was run: see the lines in red.";
    } else if (data.type === "queued") {
      clearMistakes();
      $("submitted").textContent = `Queued as ${data.run}.`;
      wanted = data.run;
    } else if (data.type === "error") {
      $("message").textContent = "✗ " + data.message;
    }
  };
}

document.querySelectorAll("input[name=question]").forEach((radio) => radio.addEventListener("change", () => {
  document.body.classList.toggle("compare", question() === "compare");
  document.body.classList.toggle("sweep", question() === "sweep");
}));
$("rule_set").addEventListener("change", () => { $("seats").replaceChildren(); send({ type: "form", rule_set: $("rule_set").value }); });
$("add_seat").addEventListener("click", () => addSeat(form.bots[form.bots.length - 1].name));
$("lab").addEventListener("input", (event) => {
  // B follows A where it was left as A had it: B is A with the changes made in its own column
  const control = event.target, field = control.dataset.field;
  if (field && field.startsWith("a.")) {
    const twin = document.querySelector(`[data-field="b.${field.slice(2)}"]`);
    if (twin && twin.value === (control.dataset.last ?? control.dataset.original)) twin.value = control.value;
    control.dataset.last = control.value;
  } else if (control.dataset.ruleOn === "a") {
    const twin = control.closest(".house").querySelector("[data-rule-on=b]");
    if (twin.checked !== control.checked) twin.checked = control.checked;
  }
  markChanges();
});
$("lab").addEventListener("change", markChanges);
$("lab").addEventListener("submit", (event) => { event.preventDefault(); $("message").textContent = ""; $("submitted").textContent = ""; send(collect()); });
if (key) connect();
else $("message").textContent = "✗ This link has no key: open the lab's own link, which th serve prints when it starts.";
