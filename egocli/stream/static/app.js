// The egocli playground: camera + microphone over WebRTC, a JSON data channel, spoken answers back.
"use strict";
(() => {
  const params = new URLSearchParams(location.search);
  // kept for this tab only, so the timeline page (linked from here) finds it too
  const token = params.get("token") || sessionStorage.getItem("egocli-token") || "";
  if (token) sessionStorage.setItem("egocli-token", token);
  const raw = params.get("raw") === "1"; // no echo cancellation etc.: the server hears the exact signal
  const $ = (id) => document.getElementById(id);
  const state = { pc: null, dc: null, answers: [], transcripts: [], partials: [], events: [], errors: [], status: "idle", nextId: 1,
                  questions: [], reminders: [] };
  window.egocli = state;

  // The token travels in a header, never in a request URL (logs, history); drop it from the address bar.
  const auth = token ? { Authorization: `Bearer ${token}` } : {};
  if (token) history.replaceState(null, "", location.pathname + (raw ? "?raw=1" : ""));
  function setStatus(text) { state.status = text; $("status").textContent = text; }
  function add(list, text, cls) {
    const li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    $(list).prepend(li);
    return li;
  }
  function send(msg) {
    if (state.dc && state.dc.readyState === "open") state.dc.send(JSON.stringify(msg));
  }

  // A confirmation (Yes/No) or a clarification (one button per option; or type the answer).
  function question(msg) {
    state.questions.push(msg);
    const li = add("answers", msg.type === "confirm" ? `Confirm: ${msg.question}` : `Question: ${msg.question}`, "ask");
    li.dataset.ref = String(msg.ref);
    const choices = msg.type === "confirm"
      ? [["Yes", { type: "confirm", id: msg.id, yes: true }], ["No", { type: "confirm", id: msg.id, yes: false }]]
      : (msg.options || []).map((o) => [o.text, { type: "reply", id: msg.id, text: o.text }]);
    const row = document.createElement("div");
    row.className = "choices";
    for (const [label, reply] of choices) {
      const b = document.createElement("button");
      b.textContent = label;
      b.className = msg.type === "confirm" ? `confirm-${reply.yes ? "yes" : "no"}` : "option";
      b.onclick = () => { send(reply); settle(li); };
      row.appendChild(b);
    }
    li.appendChild(row);
    if (msg.type === "confirm" && msg.timeout_s) setTimeout(() => settle(li), msg.timeout_s * 1000);
  }
  function settle(li) { for (const b of li.querySelectorAll("button")) b.disabled = true; li.classList.add("settled"); }

  function onMessage(event) {
    let msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    switch (msg.type) {
      case "welcome": setStatus(`streaming (session ${msg.session}; say "${msg.wake_phrase}…" to ask)`); break;
      case "ping": send({ type: "pong", t: msg.t }); break;
      case "transcript":
        if (msg.final === false) {  // still being spoken: one line, replaced as the words come in
          state.partials.push(msg);
          $("partial").textContent = `… ${msg.text}`;
          break;
        }
        $("partial").textContent = "";
        state.transcripts.push(msg);
        add("transcript", msg.text, msg.question ? "question" : "");
        break;
      case "event":
        state.events.push(msg);
        add("events", `${msg.time} [${msg.modality}] ${msg.content}`);
        break;
      case "confirm": case "clarify": question(msg); break;
      case "reminder":
        state.reminders.push(msg);
        add("answers", `Reminder: ${msg.text}${msg.place ? ` in ${msg.place}` : ""} (due ${msg.due})`, "reminder");
        break;
      case "answer": {
        for (const li of document.querySelectorAll("#answers li.ask")) {
          if (li.dataset.ref === String(msg.id)) settle(li);
        }
        state.answers.push(msg);
        const li = add("answers", `${msg.question} → ${msg.text}`);
        for (const c of msg.citations || []) {
          const s = document.createElement("div");
          s.className = "cite";
          s.textContent = `#${c.event_id} ${c.time} ${c.content}`;
          li.appendChild(s);
        }
        break;
      }
      case "chess_result": {
        const line = msg.lines && msg.lines[0];
        const best = line ? `${line.san[0]} (expected score ${line.expected_score}%)` : msg.status;
        state.answers.push(msg);
        add("answers", `Chess ${msg.fen}: ${best}. ${msg.explanation || ""}`);
        break;
      }
      case "stop": add("transcript", `(answer stopped: ${msg.reason})`, "question"); break;
      case "error": state.errors.push(msg); add("answers", `error ${msg.code}: ${msg.message}`, "error"); break;
      case "bye": setStatus(`ended: ${msg.reason}`); break;
    }
  }

  async function waitForIce(pc) {
    if (pc.iceGatheringState === "complete") return;
    await new Promise((resolve) => {
      const check = () => { if (pc.iceGatheringState === "complete") resolve(); };
      pc.addEventListener("icegatheringstatechange", check);
      setTimeout(resolve, 3000);
    });
  }

  async function start() {
    $("start").disabled = true;
    setStatus("asking for camera and microphone…");
    const constraints = raw ? { echoCancellation: false, noiseSuppression: false, autoGainControl: false } : true;
    const media = await navigator.mediaDevices.getUserMedia({ audio: constraints, video: { width: 640, height: 480 } });
    $("preview").srcObject = media;
    const pc = new RTCPeerConnection({ iceServers: [] });
    state.pc = pc;
    state.dc = pc.createDataChannel("control");
    state.dc.onmessage = onMessage;
    state.dc.onopen = () => {
      send({ type: "hello" });
      state.pinger = setInterval(() => send({ type: "ping", t: Date.now() }), 5000);
      for (const id of ["ptt", "chess", "silence", "askbtn", "hangup"]) $(id).disabled = false;
    };
    for (const track of media.getTracks()) pc.addTrack(track, media);
    pc.ontrack = (ev) => { $("speaker").srcObject = ev.streams[0] || new MediaStream([ev.track]); };
    pc.onconnectionstatechange = () => { if (pc.connectionState === "failed") setStatus("connection failed"); };
    await pc.setLocalDescription(await pc.createOffer());
    await waitForIce(pc);
    setStatus("connecting…");
    const resp = await fetch("/offer", {
      method: "POST", headers: { "Content-Type": "application/json", ...auth },
      body: JSON.stringify({ sdp: pc.localDescription.sdp, type: pc.localDescription.type }),
    });
    const body = await resp.json();
    if (!resp.ok) { setStatus(`refused: ${body.message || resp.status}`); $("start").disabled = false; return; }
    state.session = body.session;
    await pc.setRemoteDescription(body);
  }

  function hangup() {
    send({ type: "bye" });
    clearInterval(state.pinger);
    if (state.pc) state.pc.close();
    setStatus("stopped");
  }

  // Energy of the answer audio received so far (for automated checks and a level meter).
  state.receivedAudioEnergy = async () => {
    if (!state.pc) return 0;
    let energy = 0;
    (await state.pc.getStats()).forEach((r) => {
      if (r.type === "inbound-rtp" && r.kind === "audio") energy += r.totalAudioEnergy || 0;
    });
    return energy;
  };

  async function refresh() {
    const resp = await fetch("/api/events?limit=20", { headers: auth });
    if (!resp.ok) return;
    $("recent").innerHTML = "";
    for (const e of (await resp.json()).events.reverse()) add("recent", `${e.local} [${e.modality}] ${e.content}`);
  }

  $("start").onclick = () => start().catch((e) => { setStatus(`error: ${e}`); $("start").disabled = false; });
  $("hangup").onclick = hangup;
  $("refresh").onclick = refresh;
  $("silence").onclick = () => send({ type: "stop" });
  $("chess").onclick = () => send({ type: "chess", id: state.nextId++ });
  const ptt = $("ptt");
  ptt.onpointerdown = () => { ptt.classList.add("held"); send({ type: "ptt", on: true }); };
  ptt.onpointerup = ptt.onpointerleave = () => {
    if (ptt.classList.contains("held")) { ptt.classList.remove("held"); send({ type: "ptt", on: false }); }
  };
  $("askform").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("question").value.trim();
    if (!text) return;
    send({ type: "ask", id: state.nextId++, text });
    add("transcript", text, "question");
    $("question").value = "";
  };
  addEventListener("pagehide", hangup);
  refresh().catch(() => {});
  if (params.get("autostart") === "1") $("start").click();
})();
