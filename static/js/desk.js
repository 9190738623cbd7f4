// Betting desk (templates/cardroom/desk.html): shortcut keys and the focus after every swap.
// A static file because the CSP forbids inline script, and htmx's hx-on attributes would need
// 'unsafe-eval' (htmx compiles them with Function()).
(function () {
  "use strict";

  // --- shortcut keys: F fold, C check or call, R the raise box, A all-in; P push, D deal -----
  // Shown on the buttons (<kbd>). Plain keys, not accesskey: Chromium wants Alt+key for those,
  // and Alt+F opens its menu. Never while typing in a box, never with a modifier, never from a
  // held key's repeats, and one action at a time.
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat || event.isComposing) { return; }
    if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) { return; }
    var key = (event.key || "").toLowerCase();
    if (!/^[a-z]$/.test(key)) { return; }
    var target = event.target;
    // A showdown tap (a checkbox) keeps the focus after it is ticked: P pushes from there,
    // and D deals from the proposal's straddle box; other keys still do nothing in a box.
    var tick = target.matches && target.matches("input[type='checkbox']");
    var fromTick = tick && ((key === "p" && target.closest("#showdown")) ||
      (key === "d" && target.closest("#proposal .deal-next")));
    if (!fromTick && target.closest &&
        target.closest("input, textarea, select, [contenteditable]")) { return; }
    var panel = document.getElementById("action-panel");
    var wanted = '[data-shortcut="' + key + '"]';
    var control = panel && panel.querySelector(wanted);
    if (!control) {
      // Between hands: P pushes the pots (the showdown or the one-tap push), D deals.
      control = document.querySelector("#showdown " + wanted + ", #proposal " + wanted);
      panel = control && control.closest("section");
    }
    if (!control || control.disabled) { return; }
    event.preventDefault();
    if (panel.querySelector(".htmx-request")) { return; }  // the last post is still on its way
    if (control.tagName === "INPUT") {
      control.focus();
      control.select();
    } else {
      control.click();
    }
  });

  // Enter on a showdown tap does nothing: a tie is one more tap away, and an award cannot
  // be taken back at the desk. Only Push (clicked, or P) pushes the pots.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") { return; }
    var target = event.target;
    if (target.matches && target.matches("input") && target.closest(".showdown-form")) {
      event.preventDefault();
    }
  });

  // --- the poll (every 3 s, keyed on the hand's step and the seat map's last change) --------
  // A form open or being typed in keeps what is typed: the proposal's correction holds the
  // whole poll (it is the next hand being edited). A seat-map form holds only the seat map:
  // the hand, its pot, who is to act and the action panel keep following the other devices
  // (else a stale "to act" beside live-looking buttons); the seat map catches up
  // on the first poll after the form is closed.
  function proposalBusy(desk) {
    if (desk.querySelector("#proposal details[open]")) { return true; }
    var active = document.activeElement;
    return !!(active && active.matches("input, select, textarea") &&
      active.closest("#proposal .correct"));
  }
  function seatBusy(desk) {
    if (desk.querySelector("#seat-panel details[open]")) { return true; }
    var active = document.activeElement;
    return !!(active && active.matches("input, select, textarea") && active.closest("#seat-panel"));
  }
  function isPoll(event) {
    var elt = event.detail.elt;
    var config = event.detail.requestConfig;
    var verb = (config && config.verb) || (event.detail.requestConfig || {}).verb;
    return !!(elt && elt.id === "desk" && (!verb || verb === "get"));
  }
  // ``what``: false (not paused), "seat" (the seat map only) or "proposal" (the whole desk):
  // the note says which ("the hand keeps updating" would be wrong while Correct holds it all).
  function showPaused(what) {
    var note = document.getElementById("desk-paused");
    if (!note) { return; }
    if (!note.dataset.seat) { note.dataset.seat = note.textContent; }
    note.hidden = !what;
    if (what) { note.textContent = what === "proposal" ? note.dataset.proposal : note.dataset.seat; }
  }
  var kept = null;  // the seat map kept through a poll's swap, with the focus in it
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isPoll(event)) { return; }
    var desk = document.getElementById("desk");
    var paused = !!desk && proposalBusy(desk);
    showPaused(paused ? "proposal" : !!desk && seatBusy(desk) && "seat");
    if (paused) { event.preventDefault(); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    kept = null;
    if (!isPoll(event)) { return; }
    var desk = document.getElementById("desk");
    if (!desk) { return; }
    if (proposalBusy(desk)) {
      event.detail.shouldSwap = false;
      showPaused("proposal");
    } else if (seatBusy(desk)) {
      var active = document.activeElement;
      var start = null;
      var end = null;
      try { start = active.selectionStart; end = active.selectionEnd; } catch (e) { /* number */ }
      kept = { panel: document.getElementById("seat-panel"), active: active, start: start, end: end };
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var todo = kept;
    kept = null;
    var desk = document.getElementById("desk");
    if (!todo || !todo.panel || !desk || event.target !== desk) { return; }
    var fresh = desk.querySelector("#seat-panel");
    if (fresh && fresh !== todo.panel) { fresh.replaceWith(todo.panel); }
    // The seat map shown is older than the poll's key: the next poll asks for all of it.
    var url = desk.getAttribute("hx-get");
    if (url) { desk.setAttribute("hx-get", url.replace(/([?&]seq=)[^&]*/, "$1seat-map-held")); }
    showPaused("seat");
    if (todo.active && todo.panel.contains(todo.active)) {
      todo.active.focus({ preventScroll: true });
      try {
        if (todo.start !== null) { todo.active.setSelectionRange(todo.start, todo.end); }
      } catch (e) { /* a number box */ }
    }
  });

  // Escape leaves the raise box for the panel, where the shortcut keys work again.
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && event.target.id === "raise-to") {
      document.getElementById("action-panel").focus();
    }
  });

  // --- focus after a swap ----------------------------------------------------------------------
  // htmx keeps the focus only on an element with an id; everything else falls to the body.
  // Decide before the swap where the person was working, put the focus back after it.
  var plan = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    var swapped = event.detail.target;
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    var active = document.activeElement;
    plan = null;
    if (!swapped || !source) { return; }
    if (swapped.id === "desk") {
      var refused = event.detail.xhr.status === 422;
      var lost = event.detail.xhr.status === 409;
      var panel = document.getElementById("action-panel");
      if (source !== swapped && swapped.contains(source)) {
        // A desk form was sent: after an action, a deal or a void, back to the action panel;
        // a refused raise goes back to the raise box to put the amount right.
        var row = source.closest("#seat-panel .seat-row");
        if (row) {
          // A seat-map form (seat, add chips, rebuy, correct, sit out, leave): the focus stays
          // in the seat map, never on Deal, where a second Enter would deal.
          // Refused, the same form opens again with what was typed and the refusal beside it
          // (it is drawn at the top of the desk, often far above the seat map).
          // A 409 (the seat taken meanwhile, the player seated at another table) likewise:
          // what was typed is kept, the reason is beside it, not off screen at the top.
          plan = {
            to: "seatmap", row: row.id, refused: refused || lost,
            action: source.getAttribute("hx-post"), seated: source.matches(".seat-form"),
            values: Array.prototype.map.call(
              source.querySelectorAll("input:not([type='hidden']):not([type='checkbox']), select"),
              function (el) { return [el.name, el.value]; })
          };
        } else if (refused && source.matches(".raise-form")) {
          // The amount typed comes back in the box, selected, with the refusal beside it: the
          // box must never fall back to the minimum, where a second Enter would raise an
          // amount nobody typed.
          var typed = source.querySelector("#raise-to");
          plan = { to: "raise", value: typed ? typed.value : "" };
        } else if (refused && source.matches(".deal-form")) {
          plan = { to: "deal" };
        } else if (refused && source.matches(".seat-form")) {
          plan = { to: "seat" };  // the seat's form is open again with what was typed
        } else {
          // A push swaps the award in where the showdown was, often scrolled down to its
          // Push: the award is brought to the top, with the next hand's Deal under it. A deal
          // (the proposal, its correction far down the page, or typed stacks) brings the new
          // hand's header to the top, with its correction if any, the action panel under it.
          var top = source.closest("#showdown") ? "#awarded" :
            source.closest("#proposal, .deal-form") ? ".hand-facts" : null;
          // Refused or lost to another device (a 409: "Someone else got there first"): the
          // reason is drawn at the top of the desk, often above the window; it moves to just
          // above what the dealer presses next, and comes into view.
          plan = { to: "panel", top: top, refusal: refused || lost };
        }
      } else if (panel && panel.contains(active)) {
        plan = { to: "panel", keep: true };  // the desk polled while the person was at the panel
      }
    } else if (swapped.id === "count-helper" && swapped.contains(active) && active.name) {
      plan = { to: "control", name: active.name, value: active.value };
    }
  });

  // A refused raise: the amount typed back in the box (and its slider), marked invalid, the
  // refusal moved from the top of the desk to just above the box, where the dealer looks.
  function keepRefusedRaise(box, value) {
    if (value !== "") {
      box.value = value;
      var slider = document.querySelector('[data-mirror="raise-to"]');
      if (slider) { slider.value = value; }
    }
    box.setAttribute("aria-invalid", "true");
    var refusal = document.querySelector("#desk > .refusal");
    var form = box.closest("form");
    if (refusal && form) {
      refusal.id = "raise-refusal";
      refusal.classList.add("raise-refusal");
      form.parentNode.insertBefore(refusal, form);
      box.setAttribute("aria-describedby", "raise-refusal");
    }
  }

  function seatMapFocus(todo) {
    var row = document.getElementById(todo.row);
    if (!row) { return; }
    var element = null;
    var form = todo.action && Array.prototype.find.call(
      row.querySelectorAll("form"),
      function (f) { return f.getAttribute("hx-post") === todo.action; });
    var refusal = todo.refused && document.querySelector("#desk > .refusal");
    if (todo.refused && form) {
      var tools = form.closest("details");
      if (tools) { tools.open = true; }
      todo.values.forEach(function (pair) {
        var input = form.querySelector('[name="' + pair[0] + '"]');
        if (input && !input.value && pair[1]) { input.value = pair[1]; }
      });
      if (refusal) {
        refusal.classList.add("seat-refusal");
        form.parentNode.insertBefore(refusal, form);
      }
      element = form.querySelector("[aria-invalid='true']") ||
        form.querySelector("input[type='number'], input:not([type='hidden']), select");
    } else if (refusal) {
      // The form is gone (its seat was taken meanwhile): the reason goes on the seat's row.
      refusal.classList.add("seat-refusal");
      row.insertBefore(refusal, row.firstChild);
    } else if (todo.seated) {
      // Seated: the next open seat's "Seat a player", so the floor seats the table one player
      // after another; else the row's own Change.
      var next = row.nextElementSibling;
      while (next && !next.classList.contains("open")) { next = next.nextElementSibling; }
      element = next && next.querySelector("summary");
    }
    element = element || row.querySelector("summary") || row;
    element.focus({ preventScroll: true });
    var box = (element.closest("details") || element).getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      (element.closest("details") || element).scrollIntoView({ block: "nearest" });
    }
    if (element.select && element.type !== "checkbox") { element.select(); }
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    // htmx wires the new forms up only after its settle delay; a key pressed or Enter typed
    // within it would send the action as a full page post. Wire them up now (idempotent).
    var desk = document.getElementById("desk");
    if (desk && event.target === desk) { htmx.process(desk); }
    var todo = plan;
    plan = null;
    if (!todo) { return; }
    var panel = document.getElementById("action-panel");
    if (todo.keep && panel && panel.contains(document.activeElement)) { return; }
    var element = null;
    if (todo.to === "seatmap") {
      seatMapFocus(todo);
      return;
    }
    if (todo.to === "raise") {
      element = document.getElementById("raise-to");
      if (element) { keepRefusedRaise(element, todo.value); }
    } else if (todo.to === "deal") {
      element = document.querySelector(".deal-form [aria-invalid='true']") ||
        document.querySelector(".deal-form select, .deal-form input:not([type='hidden'])");
    } else if (todo.to === "seat") {
      element = document.querySelector(".seat-tools[open] .seat-form [aria-invalid='true']") ||
        document.querySelector(".seat-tools[open] .seat-form input[name='name']");
    } else if (todo.to === "control") {
      element = Array.prototype.find.call(
        document.querySelectorAll("#count-helper [name]"),
        function (el) { return el.name === todo.name && el.value === todo.value; }
      );
    }
    // Between hands there is no action panel: the next thing to press is the showdown's
    // Push (or the one-tap push when everyone else folded), else the next hand's Deal.
    element = element || panel || document.getElementById("push") ||
      document.getElementById("deal-next");
    var top = todo.top && document.querySelector("#desk " + todo.top);
    if (top) { top.scrollIntoView({ block: "start" }); }
    if (!element) { return; }
    // Chromium scrolls a focused element off screen to the middle of the window, which can
    // take the hand's header or the award just pushed off the top: scroll no more than needed.
    element.focus({ preventScroll: true });
    // After a push or a deal the header brought to the top stays there when the element's
    // first line is on screen (a tall action panel need not fit whole).
    var box = element.getBoundingClientRect();
    // During a hand the dealer reads the hand's line (street, pot, to call), the seats and
    // the action panel together: after an action (keyed or clicked) the header comes to the
    // top whenever it, or the panel's first line, has left the window. Chromium otherwise
    // keeps the page's distance from the bottom as the log grows, and the hand drifts up
    // and out of view a line per action.
    var facts = !top && document.querySelector("#desk .hand-facts");
    if (facts && (element === panel || element.id === "push")) {
      var head = facts.getBoundingClientRect();
      if (head.top < 0 || head.top > window.innerHeight / 2 || box.top < 0 ||
          box.top + 48 > window.innerHeight) {
        facts.scrollIntoView({ block: "start" });
      }
      // At showdown the next press is Push, under the taps: it comes into the window too,
      // the taps above it.
      var push = document.getElementById("push");
      if (push && !document.getElementById("to-act-line")) {
        var showdown = push.closest("#showdown") || push;
        var end = push.getBoundingClientRect().bottom;
        if (end > window.innerHeight) {
          window.scrollBy(0, Math.min(end - window.innerHeight + 12,
            Math.max(0, showdown.getBoundingClientRect().top - 8)));
        }
      }
    } else if (!top || box.top < 0 || box.top + 48 > window.innerHeight) {
      element.scrollIntoView({ block: "nearest" });
    }
    // A refused raise: the hand's line at the top when the reason and the box still fit
    // under it, else the reason at the top with the box under it: both are always seen.
    var reason = element.id === "raise-to" && document.getElementById("raise-refusal");
    var line = reason && document.querySelector("#desk .hand-facts");
    if (line) { line.scrollIntoView({ block: "start" }); }
    if (reason && (reason.getBoundingClientRect().top < 0 ||
        element.getBoundingClientRect().bottom > window.innerHeight)) {
      reason.scrollIntoView({ block: "start" });
    }
    if (element.id === "raise-to") { element.select(); }
    if (todo.refusal) { showRefusalBeside(); }
  });

  // A desk opened between hands (a reload, the dealer arriving): the award and the next
  // hand's Deal are what the dealer needs; when Deal is below the window the award comes to
  // the top, as after a push, so Deal is on screen without scrolling.
  document.addEventListener("DOMContentLoaded", function () {
    var deal = document.getElementById("deal-next");
    var award = document.querySelector("#desk #awarded");
    if (deal && award && deal.getBoundingClientRect().bottom > window.innerHeight) {
      award.scrollIntoView({ block: "start" });
    }
  });

  // The refusal of an action, a push or a deal, moved from the top of the desk to just above
  // the next thing to press (the action panel; between hands the award, showdown or the next
  // hand's proposal), and scrolled into the window with as little movement as possible.
  function showRefusalBeside() {
    var refusal = document.querySelector("#desk > .refusal");
    var anchor = document.querySelector("#desk #action-panel, #desk #awarded, " +
      "#desk #showdown, #desk #proposal");
    if (!refusal) { return; }
    if (anchor) {
      refusal.classList.add("refusal-beside");
      anchor.parentNode.insertBefore(refusal, anchor);
    }
    var box = refusal.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      refusal.scrollIntoView({ block: box.top < 0 ? "start" : "nearest" });
    }
  }
})();
