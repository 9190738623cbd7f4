// The floor's waitlists (templates/cardroom/waitlists.html). No inline script (CSP).
(function () {
  "use strict";

  // No inline styles here (the CSP refuses them): htmx need not carry "style" over when it
  // settles a swapped element (it would set one a browser or an extension put on the old one).
  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) { htmx.config.attributesToSettle = ["class", "width", "height"]; }
  });

  // Seat offers count down from the server's deadline (the next poll brings the next player).
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-expires]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.expires) - now) / 1000));
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (el.textContent !== text) { el.textContent = text; }
      el.classList.toggle("expired", left === 0);
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", function () {
    tick();
    var note = document.getElementById("waitlist-paused");
    if (note && !note.hidden && !busy()) { note.hidden = true; }  // the lists are fresh again
  });
  window.setInterval(tick, 1000);

  // The lists poll every 3 s and are swapped whole: hold the swap while someone is typing a
  // reason or a buy-in in them, or has a "Change" box open, so their words are not lost: the
  // focus in a form with a box changed (a start's buy-ins, typed one after another, then
  // Tab to Start) or refused (it came back as typed, the refusal beside it).
  // The poll after they finish brings everything that changed meanwhile.
  function busy() {
    var lists = document.getElementById("waitlists");
    if (!lists) { return false; }
    if (lists.querySelector("details[open]")) { return true; }
    var active = document.activeElement;
    var form = active && lists.contains(active) ? active.closest("form") : null;
    if (!form) { return false; }
    return Array.prototype.some.call(form.querySelectorAll("input, select, textarea"), function (box) {
      return box.getAttribute("aria-invalid") === "true" ||
        (box.type !== "hidden" && box.value !== box.defaultValue);
    });
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || elt.id !== "waitlist-poller") { return; }
    var paused = busy();
    var note = document.getElementById("waitlist-paused");
    if (note) { note.hidden = !paused; }
    if (paused) { event.preventDefault(); }
  });
  // An answer to an element no longer on the page (the poll and the actions do not cross,
  // hx-sync in the template, but an answer may still outlive what asked for it) is not
  // swapped: its out-of-band parts would find no target (htmx looks for them around the
  // element that asked). The page stays whole, with the version it shows; a poll now catches
  // up.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    if (!elt || document.body.contains(elt) || !event.detail.shouldSwap) { return; }
    if (!document.getElementById("waitlists")) { return; }
    event.detail.shouldSwap = false;
    var poller = document.getElementById("waitlist-poller");
    if (poller && window.htmx) { window.setTimeout(function () { htmx.trigger(poller, "waitlists-refresh"); }, 0); }
  });

  // A poll already under way when the box opened: its answer waits too (the poller keeps its
  // version, so the next poll after the edit brings the change).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "waitlist-poller" && busy()) {
      event.detail.shouldSwap = false;
      var note = document.getElementById("waitlist-paused");
      if (note) { note.hidden = false; }
    }
  });

  // After a player is added, the Name box (empty again) has the focus for the next one, from
  // wherever Enter was pressed: the swap replaced the form, and the focus with it.
  document.addEventListener("htmx:afterSettle", function (event) {
    var xhr = event.detail.xhr;
    var path = event.detail.pathInfo && event.detail.pathInfo.requestPath;
    if (!xhr || xhr.status !== 200 || !path || !/\/floor\/waitlists\/add\/$/.test(path)) { return; }
    var name = document.querySelector('#add-form input[name="name"]');
    if (name && document.activeElement !== name) { name.focus(); }
  });

  // After an action on the lists (Call next, Seat, Release, Move here, a must-move, a change
  // to a player) the swap takes away the button that had the focus, and the focus fell to the
  // top of the page. It goes to what the action said instead (its notice or its refusal,
  // announced) in the same panel, so the next Tab carries on there. A poll's swap puts the
  // focus back on the same control of the same panel (its place among the panel's controls).
  var REGIONS = ".list-panel, #must-moves, #open-list";
  var MESSAGES = ".list-error, .list-notice, .form-error";
  var CONTROLS = "a[href], button:not([disabled]), input:not([type='hidden']), select, textarea, summary";
  var refocus = null;
  function controlsOf(region) { return Array.prototype.slice.call(region.querySelectorAll(CONTROLS)); }
  function whereIs(elt) {
    var region = elt && elt.closest ? elt.closest(REGIONS) : null;
    if (!region || !region.id) { return null; }
    return { region: region.id, index: controlsOf(region).indexOf(elt) };
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || elt.id === "waitlist-poller") { return; }
    var where = whereIs(elt);
    refocus = where ? { region: where.region, action: true } : null;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    if (!elt || elt.id !== "waitlist-poller" || !event.detail.shouldSwap) { return; }
    var lists = document.getElementById("waitlists");
    var active = document.activeElement;
    refocus = lists && active && lists.contains(active) ? whereIs(active) : null;
  });
  function focusOn(target) {
    if (!target) { return; }
    if (!target.matches(CONTROLS) && !target.hasAttribute("tabindex")) { target.setAttribute("tabindex", "-1"); }
    target.focus();
  }
  document.addEventListener("htmx:afterSettle", function () {
    var want = refocus;
    refocus = null;
    var active = document.activeElement;
    if (!want || (active && active !== document.body && document.body.contains(active))) { return; }
    var lists = document.getElementById("waitlists");
    var region = document.getElementById(want.region) || lists;
    if (!region) { return; }
    var controls = controlsOf(region);
    if (want.action) {
      // A refused buy-in comes back as typed: the focus goes to that box, to correct it.
      var refused = region.querySelector('input[aria-invalid="true"]');
      if (refused) { refused.focus(); refused.select(); return; }
      focusOn(region.querySelector(MESSAGES) || (lists && lists.querySelector(MESSAGES)) || controls[0]);
    } else {
      focusOn(controls[Math.min(Math.max(want.index, 0), controls.length - 1)]);
    }
  });

  // An offer that ran out, and the player the timer called to that seat in its place (the
  // poll runs the timers; the lists carry the latest ones, #offers-ran-out): each one new to
  // this page is said in the status line, its called rows are lit for a few seconds (again
  // after every swap meanwhile) and a chime plays. What was there when the page opened is old.
  var LIT_MS = 8000;
  var seenRanOut = null; // the ids the lists carried last time
  var lit = {}; // entry id: lit until (ms)
  function lightCalled() {
    var now = Date.now();
    Object.keys(lit).forEach(function (id) {
      var on = lit[id] > now;
      document.querySelectorAll("#entry-" + id + ', li.open-seat[data-called="' + id + '"]').forEach(function (row) {
        row.classList.toggle("just-called", on);
      });
      if (!on) { delete lit[id]; }
    });
  }
  function offersRanOut() {
    var now = {};
    var fresh = [];
    document.querySelectorAll("#offers-ran-out [data-event]").forEach(function (item) {
      now[item.dataset.event] = true;
      if (seenRanOut && !seenRanOut[item.dataset.event]) { fresh.push(item); }
    });
    seenRanOut = now;
    if (!fresh.length) { lightCalled(); return; }
    var status = document.getElementById("waitlist-ran-out");
    if (status) { status.textContent = fresh.map(function (item) { return item.textContent; }).reverse().join(" "); }
    fresh.forEach(function (item) { if (item.dataset.entry) { lit[item.dataset.entry] = Date.now() + LIT_MS; } });
    lightCalled();
    chime();
  }
  document.addEventListener("DOMContentLoaded", offersRanOut);
  document.addEventListener("htmx:afterSettle", offersRanOut);
  window.setInterval(lightCalled, 1000);

  // A short chime (static/js/chime.js; two notes, quieter than the clock's level change).
  // Browsers start sound only after a click or a key on the page: the first one turns it on.
  var chimes = 0;
  function chime() {
    chimes += 1;
    document.body.dataset.chimes = String(chimes); // counted even when the browser keeps it silent
    if (window.cardroomChime) { window.cardroomChime.play([988, 1319], 0.22, 0.5, 0.35); }
  }

  // The add form's games are re-sent with every answer; they are swapped only when the open
  // lists changed, so boxes already ticked stay ticked.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fragment = event.detail.fragment;
    if (!target || target.id !== "add-choices" || !fragment) { return; }
    var incoming = fragment.querySelector ? fragment.querySelector("#add-choices") : null;
    if (!incoming && fragment.id === "add-choices") { incoming = fragment; }
    if (incoming && incoming.dataset.lists === target.dataset.lists) {
      event.detail.shouldSwap = false;
    }
  });
})();
