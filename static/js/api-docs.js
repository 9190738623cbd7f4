// The API docs (Swagger UI) for keyboards and screen readers. Swagger draws its own DOM, so
// this names what it leaves unnamed as it appears: the examples picker gets a label, and a code
// sample that scrolls can be focused (and so scrolled) from the keyboard.
"use strict";
(function () {
  function fix(root) {
    root.querySelectorAll("select:not([aria-label]):not([aria-labelledby])").forEach(function (select) {
      if (select.labels && select.labels.length) return;
      select.setAttribute("aria-label", select.classList.contains("examples-select-element") ? "Example" : "Choice");
    });
    root.querySelectorAll("pre:not([tabindex])").forEach(function (pre) {
      pre.setAttribute("tabindex", "0");
    });
  }
  function start() {
    const ui = document.getElementById("swagger-ui");
    if (!ui) return;
    fix(ui);
    new MutationObserver(function () { fix(ui); }).observe(ui, { childList: true, subtree: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
