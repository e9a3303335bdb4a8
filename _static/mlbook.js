// Small layout helpers for the HTML book (custom.css holds the styles).
(function () {
  // 1. Display equations wider than the column scroll sideways. Mark the side
  //    where part of an equation is hidden, so custom.css fades that edge and
  //    the reader sees there is more; updated on scroll and on resize.
  function markMath(box) {
    var left = box.scrollLeft > 1;
    var right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    box.classList.toggle("mlbook-more-left", left);
    box.classList.toggle("mlbook-more-right", right);
  }
  function markAllMath() {
    document.querySelectorAll('div.math > mjx-container[display="true"]').forEach(function (box) {
      if (!box.dataset.mlbookWide) {
        box.dataset.mlbookWide = "1";
        box.addEventListener("scroll", function () { markMath(box); }, { passive: true });
      }
      markMath(box);
    });
  }
  // 2. On a narrow screen a wide figure (a decision tree, a pair of plots)
  //    shrunk to the column has text of 4 points. Such a figure is shown at up
  //    to its own size instead, at most twice the column, and scrolls sideways.
  function sizeFigures() {
    document.querySelectorAll(".cell_output img").forEach(function (img) {
      var box = img.parentElement;
      if (!img.naturalWidth || !box) return;
      var column = box.clientWidth;
      var wide = column < 600 && img.naturalWidth > 1.4 * column;
      img.classList.toggle("mlbook-wide-figure", wide);
      img.style.width = wide ? Math.min(img.naturalWidth, 2 * column) + "px" : "";
      box.classList.toggle("mlbook-figure-scroll", wide);
    });
  }
  // 3. The header has two ☰ (and two "contents") buttons: one for wide screens,
  //    hidden on a phone, and one for narrow screens. The theme's script binds
  //    only to the first it finds, the hidden one, so on a phone neither ☰ nor
  //    "contents" opened anything (pydata-sphinx-theme #2451, sphinx-book-theme
  //    #988). Every other button of the same kind passes its click to the first.
  function forwardToggles() {
    [".primary-toggle", ".secondary-toggle"].forEach(function (selector) {
      var buttons = document.querySelectorAll(selector);
      for (var i = 1; i < buttons.length; i++) {
        buttons[i].addEventListener("click", function (event) {
          event.preventDefault();
          event.stopPropagation();
          buttons[0].click();
        });
      }
    });
  }
  // 4. A solution's title is mostly a link to its exercise. togglebutton.js
  //    opens the solution only when the click lands on the title's own box or
  //    on the chevron; a click on the link jumped to the exercise and threw
  //    "button is not defined". A click anywhere on a foldable title now opens
  //    or closes it (the exercise stays one click away, in the solution's text
  //    and above it on the page).
  function clickableTitles() {
    document.querySelectorAll(".admonition.toggle > .admonition-title").forEach(function (title) {
      title.addEventListener("click", function (event) {
        if (event.target === title || event.target.closest(".toggle-button")) return;
        event.preventDefault();
        event.stopPropagation();
        title.click();              // the title itself: togglebutton.js finds its button
      }, true);
    });
  }
  function start() {
    forwardToggles();
    clickableTitles();
    var mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) {
      mj.startup.promise.then(markAllMath);
    } else {
      setTimeout(start, 200);
    }
    sizeFigures();
  }
  window.addEventListener("resize", function () { markAllMath(); sizeFigures(); });
  window.addEventListener("load", sizeFigures);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
