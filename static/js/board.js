// The public board (templates/cardroom/board.html): a TV in the room or a player's phone.
//
// - Polls the board's live part every few seconds as a conditional request (the browser sends
//   If-None-Match; an unchanged board is a bodiless 304) and swaps it in only when its ETag
//   changed.
// - Counts the tournament clocks down from the server's time (each answer's Date header), so a
//   TV whose own clock is wrong still shows the right time left.
// - After a failed poll it shows "Reconnecting…" and retries with a growing delay (2 s … 15 s).
(function () {
  "use strict";

  var POLL_MS = 3000;
  var RETRY_MAX_MS = 15000;
  var REQUEST_TIMEOUT_MS = 5000;
  var SAMPLES = 20; // clock offset: the best of the last few answers

  var body = document.body;
  var url = body && body.dataset.liveUrl;
  var live = document.getElementById("board-live");
  if (!url || !live) { return; }
  var reconnecting = document.getElementById("board-reconnecting");
  var asOf = document.getElementById("board-as-of");

  var etag = body.dataset.liveEtag || null;
  var offsets = []; // server time - local time, lower bounds (Date is whole seconds)
  var offset = 0;
  var delay = POLL_MS;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function duration(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600);
    var m = Math.floor(s / 60) % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s % 60) : m + ":" + pad(s % 60);
  }

  function serverNow() { return Date.now() + offset; }

  function tick() {
    var clocks = live.querySelectorAll("[data-ends-at]");
    for (var i = 0; i < clocks.length; i += 1) {
      var left = Number(clocks[i].dataset.endsAt) - serverNow();
      var text = duration(left);
      if (clocks[i].textContent !== text) { clocks[i].textContent = text; }
    }
  }

  function learnOffset(response) {
    var date = Date.parse(response.headers.get("Date") || "");
    if (isNaN(date)) { return; }
    offsets.push(date - Date.now());
    if (offsets.length > SAMPLES) { offsets.shift(); }
    offset = Math.max.apply(null, offsets);
    var now = new Date(serverNow());
    if (asOf) {
      asOf.textContent = "Updated " + pad(now.getHours()) + ":" + pad(now.getMinutes()) + ":" +
        pad(now.getSeconds());
    }
  }

  function schedule() { window.setTimeout(poll, delay); }

  function poll() {
    var controller = new AbortController();
    var timer = window.setTimeout(function () { controller.abort(); }, REQUEST_TIMEOUT_MS);
    fetch(url, { cache: "no-cache", credentials: "omit", signal: controller.signal })
      .then(function (response) {
        window.clearTimeout(timer);
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        learnOffset(response);
        var tag = response.headers.get("ETag");
        if (tag && tag === etag) { return null; }
        etag = tag;
        return response.text();
      })
      .then(function (html) {
        if (typeof html === "string") {
          live.innerHTML = html;
          tick();
        }
        if (reconnecting) { reconnecting.hidden = true; }
        delay = POLL_MS;
        schedule();
      })
      .catch(function () {
        window.clearTimeout(timer);
        if (reconnecting) { reconnecting.hidden = false; }
        delay = Math.min(RETRY_MAX_MS, Math.max(2000, delay * 2));
        schedule();
      });
  }

  tick();
  window.setInterval(tick, 250);
  poll(); // at once: learn the server's time before counting down
}());
