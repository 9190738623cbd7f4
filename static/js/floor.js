// Floor dashboard: the live cards. No inline script (CSP), so this file holds the page's glue.
(function () {
  "use strict";

  // An update may resend a card that has not changed (a change still being written when the
  // page last read is read again once it commits, so it is never missed): keep the card in
  // place, and the focus in it, when it shows exactly what the page already has.
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
})();
