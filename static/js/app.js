// Cardroom front-end glue. No inline script anywhere (CSP), so everything lives here.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    if (!window.htmx) { return; }
    // Form errors come back as 422 with the form fragment, a stale hand action as 409 with the
    // refreshed desk: both are meant to be swapped in, not dropped as errors.
    htmx.config.responseHandling.unshift(
      { code: "422", swap: true, error: false },
      { code: "409", swap: true, error: false }
    );
    htmx.config.includeIndicatorStyles = false;
  });

  // A failed htmx request (network down, 5xx) says so on the page instead of failing silently.
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    showNotice("The server answered " + status + ". Try again.", status >= 500);
  });
  document.addEventListener("htmx:sendError", function () {
    showNotice("Cannot reach the server. Check the connection and try again.", true);
  });
  // A notice that the server was down or failing is out of date as soon as any later request
  // gets an answer from it (the desk's own poll, the next tap): it goes (otherwise
  // the desk would keep "Cannot reach the server" for good after a 15 s outage, working again).
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var box = document.getElementById("notice");
    if (!box || box.dataset.untilReachable !== "true" || !xhr || !xhr.status) { return; }
    if (xhr.status < 500) {
      box.hidden = true;
      box.textContent = "";
      delete box.dataset.untilReachable;
    }
  });

  function showNotice(text, untilReachable) {
    var box = document.getElementById("notice");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = false;
    if (untilReachable) { box.dataset.untilReachable = "true"; } else { delete box.dataset.untilReachable; }
  }

  // Keyboard: "/" jumps to the page's search box, as on most sites.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.target.closest("input, textarea, select")) { return; }
    var search = document.querySelector("[data-search-box]");
    if (search) {
      event.preventDefault();
      search.focus();
    }
  });

  // Range inputs mirror a number box (the raise slider on the betting desk).
  document.addEventListener("input", function (event) {
    var target = event.target;
    var partner = target.dataset && target.dataset.mirror && document.getElementById(target.dataset.mirror);
    if (partner) { partner.value = target.value; }
  });

  // Debounced auto-submit for filter forms that opt in with data-autosubmit.
  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-autosubmit]");
    if (form && !window.htmx) { form.submit(); }
  });

  // Print buttons (print views) without inline handlers.
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) { window.print(); }
  });
})();

// Citation picker: "Remove" takes a cited rule off the ruling being written (an amendment starts
// with the original's citations); focus goes back to the search box to cite another.
document.addEventListener("click", function (event) {
  var remove = event.target.closest && event.target.closest("[data-uncite]");
  if (!remove) { return; }
  remove.closest(".cited-rule").remove();
  var box = document.getElementById("cite-box");
  if (box) { box.focus(); }
});

// Citation picker: Enter searches instead of submitting the ruling; arrows move through results.
document.addEventListener("keydown", function (event) {
  var box = event.target.closest && event.target.closest("#cite-box");
  if (box && event.key === "Enter") {
    event.preventDefault();
    if (window.htmx) { htmx.trigger(box, "search"); }
    return;
  }
  if (box && event.key === "ArrowDown") {
    var first = document.querySelector("#cite-results .cite-option");
    if (first) { event.preventDefault(); first.focus(); }
    return;
  }
  var option = event.target.closest && event.target.closest(".cite-option");
  if (option && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
    var options = Array.prototype.slice.call(document.querySelectorAll("#cite-results .cite-option"));
    var next = options[options.indexOf(option) + (event.key === "ArrowDown" ? 1 : -1)];
    event.preventDefault();
    (next || document.getElementById("cite-box")).focus();
  }
});

// Rulebook search: arrows move between the box and the results; Enter in the box opens the
// first result once the results shown are for what is typed (a citation typed, Enter, read).
document.addEventListener("keydown", function (event) {
  var results = function () {
    return Array.prototype.slice.call(document.querySelectorAll("#results [data-search-result]"));
  };
  var box = event.target.closest && event.target.closest("[data-search-box]");
  if (box && (event.key === "ArrowDown" || event.key === "Enter")) {
    var shown = document.getElementById("results");
    var first = results()[0];
    var current = shown && box.value.trim() !== "" && shown.dataset.query === box.value.trim();
    if (first && (event.key === "ArrowDown" || current)) {
      event.preventDefault();
      if (event.key === "Enter") { first.click(); } else { first.focus(); }
    }
    return;
  }
  var link = event.target.closest && event.target.closest("#results [data-search-result]");
  if (link && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
    var all = results();
    var next = all[all.indexOf(link) + (event.key === "ArrowDown" ? 1 : -1)];
    event.preventDefault();
    (next || document.querySelector("[data-search-box]")).focus();
  }
});

// Player search (cardroom/players.html): a player chosen fills the name box the search serves
// with "name, contact", so the one person is meant. In a list (a textarea) it takes the line
// being typed, the last; a one-name box is replaced. Focus goes back to the box.
document.addEventListener("click", function (event) {
  var choice = event.target.closest && event.target.closest("[data-fill-target]");
  if (!choice) { return; }
  var box = document.getElementById(choice.getAttribute("data-fill-target"));
  if (!box) { return; }
  var text = choice.getAttribute("data-fill");
  if (box.tagName === "TEXTAREA") {
    var lines = box.value.split("\n");
    lines[lines.length - 1] = text;
    box.value = lines.join("\n") + "\n";
  } else {
    box.value = text;
  }
  box.focus();
});
