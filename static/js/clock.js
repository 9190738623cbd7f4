// The room display of the tournament clock (templates/tournaments/clock_display.html).
//
// Runs for hours on a TV with nobody at it, so:
// - time comes from the server: each answer carries the server's now, and the display counts
//   down with offset = server_now - its own now, whatever its own clock says;
// - it polls a small state (a fixed-size GET) and, after an error, retries with a growing
//   delay until the network is back, showing "Reconnecting…" meanwhile and counting on;
// - it plays a chime (WebAudio, no sound file) at each level change.
(function () {
  "use strict";

  var SYNC_MS = 3000; // re-sync with the server this often
  var RETRY_FIRST_MS = 1000; // after an error: 1 s, 2 s, 4 s … up to RETRY_MAX_MS
  var RETRY_MAX_MS = 15000;
  var REQUEST_TIMEOUT_MS = 5000; // a request with no answer this long counts as failed
  var TICK_MS = 200;

  var body = document.body;
  var url = body && body.dataset.stateUrl;
  if (!url) { return; }

  function el(id) { return document.getElementById(id); }
  var view = {
    state: el("room-state"),
    reconnecting: el("room-reconnecting"),
    handForHand: el("room-hand-for-hand"),
    colourUp: el("room-colour-up"),
    level: el("room-level"),
    time: el("room-time"),
    paused: el("room-paused"),
    blinds: el("room-blinds"),
    blindsValue: el("room-blinds-value"),
    ante: el("room-ante"),
    anteKind: el("room-ante-kind"),
    next: el("room-next"),
    nextBreak: el("room-break"),
    players: el("room-players"),
    average: el("room-average"),
    leadersBox: el("room-leaders-box"),
    leaders: el("room-leaders"),
    fullscreen: el("room-fullscreen"),
    sound: el("room-sound"),
    finish: el("room-finish"),
    winner: el("room-winner"),
    standings: el("room-standings"),
    now: document.querySelector(".room-now"),
    facts: el("room-facts")
  };

  var state = null; // the last state, as the server sent it (levels rolled on locally)
  var offset = null; // server's clock minus ours, in ms (none before the first answer)
  var failures = 0;
  var timer = null;
  var shownStep = null; // the structure step on screen: a change plays the chime
  var chimes = 0;

  // --- time ------------------------------------------------------------------------------------

  function serverNow() { return Date.now() + (offset || 0); }

  function clockLabel(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h > 0) { return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss; }
    return m + ":" + ss;
  }

  function chips(n) { return Number(n).toLocaleString("en-US"); }

  // --- drawing ---------------------------------------------------------------------------------

  function setText(node, text) { if (node && node.textContent !== text) { node.textContent = text; } }

  function levelLine(level) {
    if (!level) { return "–"; }
    if (level.is_break) { return level.name + " · " + Math.round(level.seconds / 60) + " min"; }
    return level.name + " · " + chips(level.small_blind) + " / " + chips(level.big_blind) +
      (level.ante ? " ante " + chips(level.ante) + (level.ante_type === "big_blind" ? " (big blind)" : "") : "");
  }

  // The finish: the clock has stopped for good; the winner and the final standings replace
  // the clock (names as a public screen shows them, written as text, never as markup).
  function drawFinish() {
    var over = Boolean(state.complete);
    view.finish.hidden = !over;
    view.now.hidden = over;
    view.facts.hidden = over;
    if (!over) { return; }
    setText(view.winner, state.winner);
    var lines = state.standings.map(function (row) { return row.place + " " + row.name; });
    if (view.standings.dataset.lines === lines.join("\n")) { return; }
    view.standings.dataset.lines = lines.join("\n");
    view.standings.textContent = "";
    state.standings.forEach(function (row) {
      var item = document.createElement("li");
      var place = document.createElement("span");
      place.className = "room-place";
      place.textContent = row.place;
      var name = document.createElement("span");
      name.className = "room-standing-name";
      name.textContent = row.name;
      item.appendChild(place);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(name);
      view.standings.appendChild(item);
    });
  }

  function drawFacts() {
    drawFinish();
    var level = state.level;
    body.className = "room-clock state-" + state.state + (level && level.is_break ? " on-break" : "");
    setText(view.state, state.state_label);
    setText(view.level, level ? level.name : state.state_label);
    view.handForHand.hidden = !state.hand_for_hand;
    // CR-CU.2: the colour-up at the coming break (text, never markup).
    view.colourUp.hidden = !state.colour_up || Boolean(state.complete);
    setText(view.colourUp, state.colour_up || "");
    view.paused.hidden = state.state !== "paused";
    view.blinds.hidden = !level || level.is_break;
    if (level && !level.is_break) {
      setText(view.blindsValue, chips(level.small_blind) + " / " + chips(level.big_blind));
      setText(view.ante, level.ante ? chips(level.ante) : "–");
      setText(view.anteKind, state.ante_type === "big_blind" ? "Big-blind ante" : "Ante each");
    }
    setText(view.next, levelLine(state.next_level));
    setText(view.players, state.players_left + " / " + state.entries);
    setText(view.average, chips(state.average_stack));
    drawLeaders();
  }

  // The chip leaders from the counts: public names, written as text, never as markup.
  function drawLeaders() {
    var rows = state.chip_leaders || [];
    view.leadersBox.hidden = Boolean(state.complete) || rows.length === 0;
    var lines = rows.map(function (row) { return row.name + " " + row.chips; }).join("\n");
    if (view.leaders.dataset.lines === lines) { return; }
    view.leaders.dataset.lines = lines;
    view.leaders.textContent = "";
    rows.forEach(function (row) {
      var item = document.createElement("li");
      var name = document.createElement("span");
      name.className = "room-leader-name";
      name.textContent = row.name;
      var count = document.createElement("span");
      count.className = "room-leader-chips";
      count.textContent = chips(row.chips);
      item.appendChild(name);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(count);
      view.leaders.appendChild(item);
    });
  }

  function remaining() {
    if (state.state === "running" && state.ends_at !== null) { return state.ends_at - serverNow(); }
    return state.remaining_ms;
  }

  function toBreak() {
    if (state.state === "running" && state.next_break_at !== null) {
      return state.next_break_at - serverNow();
    }
    return state.next_break_ms;
  }

  // The level of ``state`` has ended by the server's time: move the state on to the next one.
  function passEndedLevel() {
    var next = state.next_level;
    if (state.state !== "running" || remaining() > 0 || !next) { return false; }
    state.level = next;
    state.next_level = null;
    state.ends_at += next.seconds * 1000;
    if (next.is_break) { state.next_break_at = null; state.next_break_ms = null; }
    return true;
  }

  // The level ran out between two polls: show the next one at once (with the chime), as the
  // server will, then ask the server to confirm.
  function rollOn() {
    if (!passEndedLevel()) { return false; }
    levelShown(state.level.number);
    drawFacts();
    return true;
  }

  function tick() {
    if (state && !state.complete) { // the finish: nothing counts any more
      var left = remaining();
      if (rollOn()) {
        left = remaining();
        sync(1000); // a moment after the change, so the server has surely passed it too
      }
      var label = clockLabel(left);
      setText(view.time, label);
      view.time.classList.toggle("is-hours", label.length > 5); // h:mm:ss: narrower type
      var breakIn = toBreak();
      setText(view.nextBreak, breakIn === null || breakIn === undefined ? "–" : clockLabel(breakIn));
    }
  }

  // --- sound -----------------------------------------------------------------------------------

  var sound = window.cardroomChime;

  function soundBlocked() { return !sound || sound.blocked(); }

  function chime() {
    chimes += 1;
    body.dataset.chimes = String(chimes); // counted even when the browser keeps it silent
    // Three rising notes (A5, C#6, E6): heard across a room, not mistaken for a phone.
    if (sound) { sound.play([880, 1108.73, 1318.51], 0.28, 0.7, 0.5); }
  }

  function levelShown(step) {
    if (shownStep !== null && step !== shownStep) { chime(); }
    shownStep = step;
  }

  // However the sound comes on (a touch, a key, a browser started with sound allowed), the
  // note follows it: a context made inside the touch starts running, never resumed.
  function showSoundNote() { view.sound.hidden = !soundBlocked(); }
  if (sound) { sound.onChange(showSoundNote); }
  // Nobody touches a TV on the wall: after a minute the note shrinks to a small mark in the
  // corner instead of sitting under the clock all day (README: a TV with sound starts its
  // browser with sound allowed).
  setTimeout(function () { view.sound.classList.add("room-sound-quiet"); }, 60000);

  // --- the server ------------------------------------------------------------------------------

  function setReconnecting(on, text) {
    view.reconnecting.hidden = !on;
    if (text) { setText(view.reconnecting, text); }
    body.classList.toggle("reconnecting", on);
  }

  function sync(delay) {
    clearTimeout(timer);
    timer = setTimeout(fetchState, delay);
  }

  function fetchState() {
    var sent = Date.now();
    var controller = window.AbortController ? new AbortController() : null;
    var giveUp = controller && setTimeout(function () { controller.abort(); }, REQUEST_TIMEOUT_MS);
    fetch(url, {
      cache: "no-store",
      credentials: "same-origin",
      redirect: "manual", // a lapsed session answers with a redirect to the log-in page
      headers: { Accept: "application/json" },
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      if (response.type === "opaqueredirect" || response.status === 401 || response.status === 403) {
        var signedOut = new Error("signed out");
        signedOut.signedOut = true;
        throw signedOut;
      }
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.json();
    }).then(function (data) {
      var received = Date.now();
      // The server read its clock between our sending and our receiving, so its clock minus
      // ours lies between these two. A slow answer (held up on its way back, say) bounds it
      // loosely: the estimate already held stays while it fits, else moves to the nearer end;
      // the first answer gives the middle. Taking the middle of every answer instead put the
      // display up to half a slow round trip behind, showing a level the server had left.
      var low = data.server_now - received, high = data.server_now - sent;
      offset = offset === null ? (low + high) / 2 : Math.min(high, Math.max(low, offset));
      state = data;
      // An answer the server read before the level ended may arrive after it (a slow poll
      // across the end): the display has moved on already, so pass the ended level before
      // showing the answer rather than show the old level again and chime the change twice.
      var passed = passEndedLevel();
      if (state.level) { levelShown(state.level.number); }
      drawFacts();
      tick();
      failures = 0;
      setReconnecting(false);
      sync(passed ? 1000 : SYNC_MS); // a passed level: the server confirms it a moment later
    }).catch(function (error) {
      failures += 1;
      setReconnecting(true, error && error.signedOut ? "Signed out: log in again" : "Reconnecting…");
      var delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * Math.pow(2, failures - 1));
      sync(delay * (0.8 + Math.random() * 0.4)); // spread many displays' retries apart
    }).finally(function () {
      if (giveUp) { clearTimeout(giveUp); }
    });
  }

  // --- full screen -----------------------------------------------------------------------------

  function fullscreenLabel() {
    setText(view.fullscreen, document.fullscreenElement ? "Exit full screen" : "Full screen");
  }

  view.fullscreen.addEventListener("click", function () {
    if (document.fullscreenElement) {
      document.exitFullscreen().catch(function () {});
    } else if (document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen().catch(function () {});
    }
  });
  document.addEventListener("fullscreenchange", fullscreenLabel);

  // A tab brought back (or a TV woken) re-syncs at once rather than at the next poll.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { sync(0); }
  });

  if (sound) { sound.context(); }
  showSoundNote();
  fetchState();
  setInterval(tick, TICK_MS);
})();
