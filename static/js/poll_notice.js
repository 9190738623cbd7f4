// A page's poller (an element with data-poll-notice, the text to show) that fails says so
// once in #notice; the next poll that gets through clears it. Loaded by the pages that poll
// (floor.html, waitlists.html). No inline script (CSP).
(function () {
  "use strict";

  function poller(event) {
    var elt = event.detail.elt;
    return elt && elt.dataset && elt.dataset.pollNotice ? elt : null;
  }

  // A poll that failed (a 5xx, a dropped connection) is simply tried again by the poller;
  // once one gets through, the notice the failure raised is out of date.
  // (Before the swap: afterwards the poller that asked is replaced and out of the document.)
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!poller(event) || status < 200 || status >= 300) { return; }
    var box = document.getElementById("notice");
    if (box && box.dataset.fromPoll === "true") {
      box.hidden = true;
      box.textContent = "";
      delete box.dataset.fromPoll;
    }
  });
  ["htmx:responseError", "htmx:sendError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var elt = poller(event);
      var box = document.getElementById("notice");
      if (box && elt) {
        box.textContent = elt.dataset.pollNotice;
        box.hidden = false;
        box.dataset.fromPoll = "true";
      }
    });
  });
})();
