// Display equations wider than the column scroll sideways (custom.css). Mark
// the side where part of an equation is hidden, so custom.css fades that edge
// and the reader sees there is more; updated on scroll and on resize.
(function () {
  function mark(box) {
    var left = box.scrollLeft > 1;
    var right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    box.classList.toggle("mlbook-more-left", left);
    box.classList.toggle("mlbook-more-right", right);
  }
  function markAll() {
    document.querySelectorAll('div.math > mjx-container[display="true"]').forEach(function (box) {
      if (!box.dataset.mlbookWide) {
        box.dataset.mlbookWide = "1";
        box.addEventListener("scroll", function () { mark(box); }, { passive: true });
      }
      mark(box);
    });
  }
  function start() {
    var mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) {
      mj.startup.promise.then(markAll);
    } else {
      setTimeout(start, 200);
    }
  }
  window.addEventListener("resize", markAll);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
