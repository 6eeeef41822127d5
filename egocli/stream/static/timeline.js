// egocli timeline: one day of the log told as a diary (its digest, then hour by hour its summary and salient
// events with their text, time and kept frame), over an overview axis with one lane per modality; search,
// ask, details, forget. Everything from the log is inserted as text (textContent), never as HTML.
// This file: the API, shared helpers, loading a day, detail, search, ask, forget, routing. The diary is in
// timeline.diary.js, the overview in timeline.axis.js (loaded after this one; init runs when all are).
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// The token travels in a header, never in a request URL; kept for this tab (the playground shares it) and
// dropped from the address bar.
const TOKEN = params.get("token") || sessionStorage.getItem("egocli-token") || "";
if (TOKEN) {
  sessionStorage.setItem("egocli-token", TOKEN);
  params.delete("token");
  history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : "") + location.hash);
}
const LARGE_KEY = "egocli-large-text";
if (localStorage.getItem(LARGE_KEY) === "1") document.documentElement.classList.add("large");

const HOUR = 3600e3, MIN = 60e3;

const timeline = window.timeline = {
  day: null, events: [], lanes: [], view: [0, 0], hits: new Set(), selected: null, selection: null,
  ready: false, answer: "", citations: [], error: null, frames: new Map(), digest: null, digestText: "",
};

function headers(extra) {
  const h = Object.assign({}, extra || {});
  if (TOKEN) h["Authorization"] = "Bearer " + TOKEN;
  return h;
}

async function api(path, body) {
  const init = body === undefined ? { headers: headers() }
    : { method: "POST", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || res.statusText);
  return data;
}

function status(text) { $("status").textContent = text; }

const pad = (n) => String(n).padStart(2, "0");
const clock = (ms) => { const d = new Date(ms); return pad(d.getHours()) + ":" + pad(d.getMinutes()); };
const clockS = (ms) => clock(ms) + ":" + pad(new Date(ms).getSeconds());
const isoDay = (d) => d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate());
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const longDay = (day) => { const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d).toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long", year: "numeric" }); };
/** The text scale: 1, or more in large-text mode (the SVG is drawn in CSS px, so it scales by this). */
const uiScale = () => parseFloat(getComputedStyle(document.documentElement).fontSize) / 16 || 1;

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

async function loadDay(day, focusId) {
  status("loading…");
  const [data] = await Promise.all([api("/api/timeline/day" + (day ? "?day=" + day : "")), loadDigest(day)]);
  timeline.day = data.day;
  timeline.dayStart = data.start_ms;
  timeline.dayEnd = data.end_ms;
  timeline.events = data.events;
  timeline.lanes = data.modalities.length ? data.modalities : ["note"];
  timeline.view = fitView(data.events, data.start_ms, data.end_ms);
  $("daypick").value = data.day;
  document.title = `${data.day} · egocli timeline`;
  if (!timeline.digest || timeline.digest.day !== data.day) await loadDigest(data.day);
  const n = data.events.length;
  status(n ? `${plural(n, "event")}${data.truncated ? " (the densest part cut)" : ""}` : "no events this day");
  await loadMonth(data.day);
  draw();
  if (focusId !== undefined) focusEvent(focusId);
  timeline.ready = true;
}

function fitView(events, lo, hi) {
  if (!events.length) return [lo, hi];
  let a = Math.min(...events.map((e) => e.s)), b = Math.max(...events.map((e) => e.e));
  const margin = Math.max((b - a) * 0.05, 5 * MIN);
  return [Math.max(lo, a - margin), Math.min(hi, b + margin)];
}

async function loadMonth(day) {
  const [y, m] = day.split("-").map(Number);
  const first = new Date(y, m - 1, 1), last = new Date(y, m, 0);
  const data = await api(`/api/timeline/density?from=${isoDay(first)}&to=${isoDay(last)}`);
  const strip = $("month");
  strip.replaceChildren();
  const max = Math.max(1, ...Object.values(data.days));
  for (const [d, n] of Object.entries(data.days)) {
    const a = el("a", { href: "#day-" + d, title: `${d}: ${plural(n, "event")}`,
                        "aria-label": `${longDay(d)}: ${plural(n, "event")}` }, String(Number(d.slice(8))));
    a.dataset.count = n;
    if (n === 0) a.className = "empty";
    else a.style.background = `rgba(26, 86, 196, ${0.12 + 0.58 * n / max})`;  // dark text stays >= 5:1
    if (d === day) { a.classList.add("today"); a.setAttribute("aria-current", "date"); }
    strip.appendChild(a);
  }
}

async function frameUrl(id) {
  if (timeline.frames.has(id)) return timeline.frames.get(id);
  const pending = fetch("/api/timeline/media/" + id, { headers: headers() })
    .then((r) => (r.ok ? r.blob() : null)).then((b) => (b ? URL.createObjectURL(b) : null));
  timeline.frames.set(id, pending);
  return pending;
}

// --- event detail, search, ask, forget --------------------------------------------------------------------

async function focusEvent(id) {
  id = Number(id);
  let ev = timeline.events.find((x) => x.id === id);
  let detail;
  try { detail = await api(`/api/timeline/event/${id}?context=3`); } catch (err) { status(err.message); return; }
  const d = new Date(detail.event.start_ms);
  if (!ev && isoDay(d) !== timeline.day) { await loadDay(isoDay(d)); ev = timeline.events.find((x) => x.id === id); }
  timeline.selected = id;
  const keep = timeline.keepView;
  timeline.keepView = false;
  // a link (diary, search hit, citation, #event-ID) zooms to the events of the half hour around it, so their
  // text and frames show; a click on the overview keeps the view
  if (ev && (!keep || ev.s < timeline.view[0] || ev.s > timeline.view[1])) showBusy(ev.s - 15 * MIN, ev.s + 15 * MIN);
  else draw();
  markSelected();
  showDetail(detail);
  const box = $("detail").getBoundingClientRect();  // one column (narrow or large text): the detail is below
  if (box.top > innerHeight || box.bottom < 0) $("detailhead").scrollIntoView({ block: "start" });
}

function showDetail(detail) {
  const box = $("detail"), ev = detail.event;
  box.replaceChildren();
  const p = (text, cls) => { const node = el("p", cls ? { class: cls } : {}, text); box.appendChild(node); return node; };
  p(`${ev.local} – ${ev.end_local.slice(-8)} · ${ev.modality}${ev.source ? " · " + ev.source : ""}`, "when");
  p(ev.content, "content").id = "detailtext";
  if (ev.media) {
    const img = el("img", { alt: `kept frame of the event at ${ev.local}` });
    box.appendChild(img);
    frameUrl(ev.id).then((url) => { if (url) img.src = url; else img.remove(); });
  }
  box.appendChild(el("a", { href: "#event-" + ev.id }, "link to this event (#event-" + ev.id + ")"));
  if (ev.meta && Object.keys(ev.meta).length) box.appendChild(el("pre", {}, JSON.stringify(ev.meta, null, 1)));
  box.appendChild(el("h2", {}, "Around it"));
  const list = el("ol");
  const all = [...detail.neighbours, ev].sort((x, y) => x.start_ms - y.start_ms || x.id - y.id);
  for (const n of all) {
    const li = el("li", { class: "neighbour" + (n.id === ev.id ? " current" : "") });
    li.appendChild(el("a", { href: "#event-" + n.id }, `${n.local.slice(-8)} ${n.modality}: ${n.content}`));
    list.appendChild(li);
  }
  box.appendChild(list);
}

function markText(parent, snippet) {
  // FTS snippets mark matches with [ and ]: shown as <mark>, the rest as text.
  const parts = snippet.split(/(\[[^\]]*\])/);
  for (const part of parts) {
    if (part.startsWith("[") && part.endsWith("]")) parent.appendChild(el("mark", {}, part.slice(1, -1)));
    else if (part) parent.appendChild(document.createTextNode(part));
  }
}

let searchTimer = null, searchSeq = 0;
function onSearch() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(runSearch, 200);
}

async function runSearch() {
  const q = $("search").value.trim(), seq = ++searchSeq;
  $("hitshead").hidden = !q;
  if (!q) { timeline.hits = new Set(); $("hits").replaceChildren(); $("hitcount").textContent = ""; draw(); return; }
  let data;
  try { data = await api("/api/timeline/search?q=" + encodeURIComponent(q)); } catch (err) { status(err.message); return; }
  if (seq !== searchSeq) return;
  timeline.hits = new Set(data.hits.map((h) => h.id));
  const list = $("hits");
  list.replaceChildren();
  for (const h of data.hits) {
    const li = el("li"), a = el("a", { href: "#event-" + h.id });
    a.appendChild(document.createTextNode(h.local + " "));
    markText(a, h.snippet);
    li.appendChild(a);
    list.appendChild(li);
  }
  const here = data.hits.filter((h) => timeline.events.some((e) => e.id === h.id)).length;
  $("hitcount").textContent = `(${data.hits.length}, ${here} on this day)`;
  draw();
}

async function ask(question) {
  timeline.answer = ""; timeline.citations = []; timeline.error = null; timeline.asking = true;
  $("answer").textContent = "Thinking…";
  $("citations").replaceChildren();
  $("askbtn").disabled = true;
  try {
    const res = await fetch("/api/timeline/ask", { method: "POST", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify({ question }) });
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).message || res.statusText);
    const reader = res.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) { onAskLine(JSON.parse(buffer.slice(0, nl))); buffer = buffer.slice(nl + 1); }
    }
  } catch (err) {
    timeline.error = err.message;
    $("answer").textContent = "Error: " + err.message;
  } finally {
    timeline.asking = false;
    $("askbtn").disabled = false;
  }
}

function onAskLine(line) {
  if (line.token !== undefined) {
    timeline.answer += line.token;
    $("answer").textContent = timeline.answer;
  } else if (line.error) {
    timeline.error = line.error;
    $("answer").textContent = "Error: " + line.error;
  } else {
    timeline.answer = line.answer;
    timeline.citations = line.citations;
    $("answer").textContent = line.answer;
    const list = $("citations");
    for (const c of line.citations) {
      const li = el("li");
      li.appendChild(el("a", { href: "#event-" + c.event_id, class: "citation" }, `${c.time} ${c.content}`));
      list.appendChild(li);
    }
  }
}

async function forgetSelection() {
  if (!timeline.selection) return;
  const [s, e] = timeline.selection.map(Math.round);
  const count = (await api("/api/timeline/forget", { since_ms: s, until_ms: e })).would_forget;
  $("confirmtext").textContent = `Forget ${plural(count, "event")} from ${clockS(s)} to ${clockS(e)} on ${timeline.day}?`;
  const dialog = $("confirm");
  dialog.returnValue = "";
  dialog.showModal();
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "ok") return;
    const done = await api("/api/timeline/forget", { since_ms: s, until_ms: e, confirm: true });
    timeline.selection = null;
    timeline.frames.clear();
    timeline.digestText = "";
    await loadDay(timeline.day);
    status(`forgot ${plural(done.forgotten, "event")}`);
  }, { once: true });
}

function shiftDay(n) {
  const [y, m, d] = timeline.day.split("-").map(Number);
  location.hash = "day-" + isoDay(new Date(y, m - 1, d + n));
}

function setLargeText(on) {
  document.documentElement.classList.toggle("large", on);
  $("largetext").setAttribute("aria-pressed", String(on));
  localStorage.setItem(LARGE_KEY, on ? "1" : "0");
  draw();
}

async function route() {
  const h = decodeURIComponent(location.hash.slice(1));
  try {
    if (h.startsWith("event-")) await focusEvent(h.slice(6));
    else if (h.startsWith("day-")) await loadDay(h.slice(4));
    else if (!timeline.day) await loadDay(params.get("day") || "");
  } catch (err) {
    status("Error: " + err.message);
    timeline.error = err.message;
  }
}

function init() {
  $("prev").onclick = () => shiftDay(-1);
  $("next").onclick = () => shiftDay(1);
  $("daypick").onchange = () => { if ($("daypick").value) location.hash = "day-" + $("daypick").value; };
  $("zoomall").onclick = wholeDay;
  $("zoomin").onclick = () => zoom(0.5);
  $("zoomout").onclick = () => zoom(2);
  $("panleft").onclick = () => pan(-(timeline.view[1] - timeline.view[0]) / 4);
  $("panright").onclick = () => pan((timeline.view[1] - timeline.view[0]) / 4);
  $("forgetbtn").onclick = forgetSelection;
  $("largetext").setAttribute("aria-pressed", String(document.documentElement.classList.contains("large")));
  $("largetext").onclick = () => setLargeText(!document.documentElement.classList.contains("large"));
  $("search").addEventListener("input", onSearch);
  $("askform").addEventListener("submit", (e) => { e.preventDefault(); const q = $("question").value.trim(); if (q) ask(q); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey || $("confirm").open) return;
    if (e.key === "ArrowLeft") shiftDay(-1);
    else if (e.key === "ArrowRight") shiftDay(1);
    else if (e.key === "+") zoom(0.5);
    else if (e.key === "-") zoom(2);
  });
  installAxis();
  // summaries `egocli summarize` builds later appear: the digest is read again every minute and on coming back
  setInterval(refreshDigest, DIGEST_POLL);
  window.addEventListener("focus", refreshDigest);
  document.addEventListener("visibilitychange", refreshDigest);
  window.addEventListener("hashchange", route);
  (location.hash ? loadDay(params.get("day") || "").then(route) : route());
}

document.addEventListener("DOMContentLoaded", init);
