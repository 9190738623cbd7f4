// Floor dashboard: the live cards. No inline script (CSP), so this file holds the page's glue.
(function () {
  "use strict";

  // An update may resend a card that has not changed (a poll overlaps the one before it so a
  // late commit is never missed): keep the card in place, and the focus in it, when it shows
  // exactly what the page already has.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fragment = event.detail.fragment;
    if (!target || !target.classList || !target.classList.contains("table-card") || !fragment) {
      return;
    }
    var incoming = fragment.querySelector ? fragment.querySelector(".table-card") : null;
    if (!incoming && fragment.classList && fragment.classList.contains("table-card")) {
      incoming = fragment;
    }
    if (incoming && incoming.dataset.version === target.dataset.version) {
      event.detail.shouldSwap = false;
    }
  });

  // A card (or the whole grid) that does change is swapped while someone may be working in
  // it: the focus goes back to the same control of the same table's new card.
  var FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea";
  var pendingFocus = null;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var active = document.activeElement;
    if (!event.detail.shouldSwap || !target || !active || !target.contains(active)) { return; }
    var card = active.closest(".table-card");
    if (!card) { return; }
    var controls = Array.prototype.slice.call(card.querySelectorAll(FOCUSABLE));
    pendingFocus = { card: card.id, index: controls.indexOf(active) };
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!pendingFocus) { return; }
    var card = document.getElementById(pendingFocus.card);
    var controls = card ? card.querySelectorAll(FOCUSABLE) : [];
    var control = controls[pendingFocus.index] || controls[0];
    pendingFocus = null;
    if (control) { control.focus(); }
  });

  // A poll that failed (a 5xx, a dropped connection) is simply tried again by the poller;
  // once one gets through, the notice the failure raised is out of date.
  // (Before the swap: afterwards the poller that asked is replaced and out of the document.)
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var elt = event.detail.elt;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!elt || elt.id !== "poller" || status < 200 || status >= 300) { return; }
    var box = document.getElementById("notice");
    if (box && box.dataset.fromPoll === "true") {
      box.hidden = true;
      box.textContent = "";
      delete box.dataset.fromPoll;
    }
  });
  ["htmx:responseError", "htmx:sendError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var elt = event.detail.elt;
      var box = document.getElementById("notice");
      if (box && elt && elt.id === "poller") {
        box.textContent = "The floor stopped updating for a moment; retrying every 3 seconds.";
        box.hidden = false;
        box.dataset.fromPoll = "true";
      }
    });
  });
})();
