// A chime in WebAudio, no sound file: the room display's level change (static/js/clock.js) and
// the floor's automatic call (static/js/waitlists.js). Browsers start sound only after a click
// or key on the page: the first one turns it on. A static file because the CSP forbids inline
// script; loaded before the page's own script.
window.cardroomChime = (function () {
  "use strict";

  var audio = null;
  var listeners = [];

  function context() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) {
      audio = new Context();
      audio.addEventListener("statechange", function () {
        listeners.forEach(function (listener) { listener(); });
      });
    }
    return audio;
  }

  // Whether the browser keeps the sound off for now (no click or key on the page yet).
  function blocked() { return !audio || audio.state !== "running"; }

  // ``listener`` runs whenever the sound goes on or off (a note that says it is off).
  function onChange(listener) { listeners.push(listener); }

  function unlock() {
    var ctx = context();
    if (ctx && ctx.state !== "running" && ctx.resume) {
      ctx.resume().then(function () {
        listeners.forEach(function (listener) { listener(); });
      }, function () {});
    }
    listeners.forEach(function (listener) { listener(); });
  }

  // Rising notes at ``frequencies`` (Hz), ``spacing`` s apart, each ``length`` s long.
  function play(frequencies, spacing, length, volume) {
    var ctx = context();
    if (!ctx) { return; }
    if (ctx.state !== "running" && ctx.resume) { ctx.resume().catch(function () {}); }
    var start = ctx.currentTime + 0.05;
    frequencies.forEach(function (frequency, i) {
      var at = start + i * spacing;
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(volume, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(at);
      osc.stop(at + length + 0.05);
    });
  }

  document.addEventListener("pointerdown", unlock);
  document.addEventListener("keydown", unlock);

  return { context: context, blocked: blocked, onChange: onChange, play: play };
})();
