// The egocli playground: camera + microphone over WebRTC, a JSON data channel, spoken answers back.
// Directly to `egocli serve` (default), or through a Janus VideoRoom to the room's `egocli agent`
// (?janus=ws://host:8188&room=N, or the Janus fields in the header; janus.js speaks Janus's API).
"use strict";
(() => {
  const params = new URLSearchParams(location.search);
  // kept for this tab only, so the timeline page (linked from here) finds it too
  const token = params.get("token") || sessionStorage.getItem("egocli-token") || "";
  if (token) sessionStorage.setItem("egocli-token", token);
  const raw = params.get("raw") === "1"; // no echo cancellation etc.: the server hears the exact signal
  const janusToken = params.get("janus_token") || sessionStorage.getItem("egocli-janus-token") || "";
  if (janusToken) sessionStorage.setItem("egocli-janus-token", janusToken);
  const $ = (id) => document.getElementById(id);
  const state = { pc: null, pcs: [], dc: null, janus: null, answers: [], transcripts: [], partials: [], events: [],
                  errors: [], status: "idle", nextId: 1,
                  questions: [], reminders: [] };
  window.egocli = state;

  // The token travels in a header, never in a request URL (logs, history); drop it from the address bar.
  const auth = token ? { Authorization: `Bearer ${token}` } : {};
  const pin = params.get("pin") || sessionStorage.getItem("egocli-room-pin") || "";
  if (pin) sessionStorage.setItem("egocli-room-pin", pin);
  if (token || janusToken || params.has("pin")) { // secrets never stay in the address bar (history, screenshots)
    const kept = new URLSearchParams(params);
    for (const secret of ["token", "janus_token", "pin", "autostart"]) kept.delete(secret);
    history.replaceState(null, "", location.pathname + (kept.size ? `?${kept}` : ""));
  }
  $("janusurl").value = params.get("janus") || "";
  $("room").value = params.get("room") || "";
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
      case "welcome":
        state.session = msg.session;
        setStatus(`streaming (session ${msg.session}; say "${msg.wake_phrase}…" to ask)`);
        break;
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

  // Microphone and camera; microphone only when there is no camera.
  async function openMedia() {
    const audio = raw ? { echoCancellation: false, noiseSuppression: false, autoGainControl: false } : true;
    try {
      return await navigator.mediaDevices.getUserMedia({ audio, video: { width: 640, height: 480 } });
    } catch (e) {
      if (e.name !== "NotFoundError" && e.name !== "OverconstrainedError") throw e;
      return navigator.mediaDevices.getUserMedia({ audio });
    }
  }

  function streaming() {
    state.pinger = setInterval(() => send({ type: "ping", t: Date.now() }), 5000);
    for (const id of ["ptt", "chess", "silence", "askbtn", "hangup"]) $(id).disabled = false;
  }

  async function start() {
    $("start").disabled = true;
    setStatus("asking for camera and microphone…");
    const media = await openMedia();
    $("preview").srcObject = media;
    const janusUrl = $("janusurl").value.trim();
    if (janusUrl) await startJanus(media, janusUrl, Number($("room").value));
    else await startDirect(media);
  }

  async function startDirect(media) {
    const pc = new RTCPeerConnection({ iceServers: [] });
    state.pc = pc;
    state.pcs = [pc];
    state.dc = pc.createDataChannel("control");
    state.dc.onmessage = onMessage;
    state.dc.onopen = () => { send({ type: "hello" }); streaming(); };
    for (const track of media.getTracks()) pc.addTrack(track, media);
    pc.ontrack = playAnswers;
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

  function playAnswers(ev) { $("speaker").srcObject = ev.streams[0] || new MediaStream([ev.track]); }

  // Through Janus: the agent subscribes to this page's feed after it appears, so say hello until welcomed.
  async function startJanus(media, url, room) {
    if (!Number.isInteger(room) || room <= 0) throw new Error("give the Janus room number");
    setStatus(`joining room ${room} at ${url} (waiting for its agent)…`);
    state.session = null;
    state.hangingUp = false;
    const link = await window.egocliJanus.connect(url, room, media, {
      display: params.get("display") || "playground", pin, token: janusToken,
      waitForIce, onMessage, onTrack: playAnswers,
      // closed by hangup() (Stop, the agent leaving) is no news; closed by Janus or the network is
      onClose: () => { if (!state.hangingUp) setStatus("the Janus connection closed"); },
      onAgentLeft: () => {
        hangup();
        setStatus("the room's agent left: press Start again once it is back");
        $("start").disabled = false;
      },
    });
    state.janus = link;
    state.pcs = link.pcs;
    [state.pc] = link.pcs;
    state.dc = link.channel;
    setStatus(`waiting for the agent of room ${room}…`);
    const greet = setInterval(() => {
      if (state.session || link.channel.readyState === "closed") clearInterval(greet);
      else send({ type: "hello" });
    }, 1000);
    streaming();
  }

  function hangup() {
    state.hangingUp = true;
    send({ type: "bye" });
    clearInterval(state.pinger);
    if (state.janus) state.janus.close();
    else if (state.pc) state.pc.close();
    setStatus("stopped");
  }

  // Energy of the answer audio received so far (for automated checks and a level meter).
  state.receivedAudioEnergy = async () => {
    let energy = 0;
    for (const pc of state.pcs) {
      (await pc.getStats()).forEach((r) => {
        if (r.type === "inbound-rtp" && r.kind === "audio") energy += r.totalAudioEnergy || 0;
      });
    }
    return energy;
  };

  async function refresh() {
    if ($("janusurl").value) return; // the log is the room agent's, not this server's
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
  // The page connects only to a Janus the server was started with (--janus: its Content-Security-Policy).
  if (params.get("autostart") === "1") $("start").click();
})();
