// Betting desk (templates/cardroom/desk.html): shortcut keys and the focus after every swap.
// A static file because the CSP forbids inline script, and htmx's hx-on attributes would need
// 'unsafe-eval' (htmx compiles them with Function()).
(function () {
  "use strict";

  // --- shortcut keys: F fold, C check or call, R the raise box, A all-in ----------------------
  // Shown on the buttons (<kbd>). Plain keys, not accesskey: Chromium wants Alt+key for those,
  // and Alt+F opens its menu. Never while typing in a box, never with a modifier, never from a
  // held key's repeats, and one action at a time.
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat || event.isComposing) { return; }
    if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) { return; }
    var key = (event.key || "").toLowerCase();
    if (!/^[a-z]$/.test(key)) { return; }
    var target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) { return; }
    var panel = document.getElementById("action-panel");
    var control = panel && panel.querySelector('[data-shortcut="' + key + '"]');
    if (!control || control.disabled) { return; }
    event.preventDefault();
    if (panel.querySelector(".htmx-request")) { return; }  // the last action is still on its way
    if (control.tagName === "INPUT") {
      control.focus();
      control.select();
    } else {
      control.click();
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
      var panel = document.getElementById("action-panel");
      if (source !== swapped && swapped.contains(source)) {
        // A desk form was sent: after an action, a deal or a void, back to the action panel;
        // a refused raise goes back to the raise box to put the amount right.
        if (refused && source.matches(".raise-form")) {
          plan = { to: "raise" };
        } else if (refused && source.matches(".deal-form")) {
          plan = { to: "deal" };
        } else {
          plan = { to: "panel" };
        }
      } else if (panel && panel.contains(active)) {
        plan = { to: "panel", keep: true };  // the desk polled while the person was at the panel
      }
    } else if (swapped.id === "count-helper" && swapped.contains(active) && active.name) {
      plan = { to: "control", name: active.name, value: active.value };
    }
  });

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
    if (todo.to === "raise") {
      element = document.getElementById("raise-to");
    } else if (todo.to === "deal") {
      element = document.querySelector(".deal-form [aria-invalid='true']") ||
        document.querySelector(".deal-form select, .deal-form input:not([type='hidden'])");
    } else if (todo.to === "control") {
      element = Array.prototype.find.call(
        document.querySelectorAll("#count-helper [name]"),
        function (el) { return el.name === todo.name && el.value === todo.value; }
      );
    }
    element = element || panel;
    if (!element) { return; }
    element.focus();
    if (element.id === "raise-to") { element.select(); }
  });
})();
