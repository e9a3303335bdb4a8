// Search excerpts that show the page's prose.
//
// Sphinx 7's search page (searchtools.js) fetches each hit's HTML page and cuts
// the excerpt from the text of its [role="main"] element. In this theme that
// element also holds the article header (the launch buttons "Binder", "Colab",
// the download menu, the page's contents list) and a print-only copy of the
// title, so an excerpt could read "...Binder Colab Repository ...". Formulas
// are still TeX in the fetched HTML (MathJax typesets them only on the page),
// so excerpts showed "\(\boldsymbol{w}\)". And where the search term does not
// occur in the text, the excerpt started with "..." although it was cut from
// the very start.
//
// Here the excerpt is cut from the article alone (EXCERPT_ROOT), without
// permalinks, scripts, styles, code blocks and outputs (EXCERPT_DROP: code
// holds TeX of its own, in docstrings and plot labels), and each formula
// (EXCERPT_MATH) is replaced by a plain-text reading of it: "w", "x_i",
// "α ≤ C"; a formula with anything this file does not know reads "[formula]".
// The titles of the results, which come from the search index, get the same
// reading where they hold TeX (fixResultTitles).
// tools/check_book.py reads the three selectors below from this file and
// checks, on every page, that the text they give starts with the page's title
// and holds no TeX: keep them as plain string constants.
(function () {
  "use strict";
  const EXCERPT_ROOT = "article.bd-article";
  // code blocks, outputs and API signatures too: the excerpt shows prose
  const EXCERPT_DROP = ".headerlink, script, style, pre, dt.sig";
  const EXCERPT_MATH = "span.math, div.math";
  // an excerpt is 240 characters: a formula read out longer than a quarter of
  // that would crowd out the prose around it, so it reads "[formula]"
  const LONGEST_FORMULA = 60;

  const GREEK = {
    alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ϵ", varepsilon: "ε",
    zeta: "ζ", eta: "η", theta: "θ", vartheta: "ϑ", iota: "ι", kappa: "κ", lambda: "λ",
    mu: "μ", nu: "ν", xi: "ξ", pi: "π", rho: "ρ", sigma: "σ", tau: "τ", upsilon: "υ",
    phi: "ϕ", varphi: "φ", chi: "χ", psi: "ψ", omega: "ω",
    Gamma: "Γ", Delta: "Δ", Theta: "Θ", Lambda: "Λ", Xi: "Ξ", Pi: "Π", Sigma: "Σ",
    Phi: "Φ", Psi: "Ψ", Omega: "Ω",
  };
  const SYMBOLS = {
    le: "≤", leq: "≤", ge: "≥", geq: "≥", ne: "≠", neq: "≠", approx: "≈", sim: "~",
    equiv: "≡", propto: "∝", in: "∈", notin: "∉", subset: "⊂", subseteq: "⊆",
    cup: "∪", cap: "∩", setminus: "∖", emptyset: "∅", varnothing: "∅", forall: "∀",
    exists: "∃", to: "→", rightarrow: "→", leftarrow: "←", Rightarrow: "⇒",
    mapsto: "↦", infty: "∞", partial: "∂", nabla: "∇", cdot: "·", times: "×",
    pm: "±", mp: "∓", sum: "Σ", prod: "Π", int: "∫", sqrt: "√", ldots: "…",
    dots: "…", cdots: "⋯", mid: "|", lVert: "‖", rVert: "‖", Vert: "‖", lvert: "|",
    rvert: "|", langle: "⟨", rangle: "⟩", perp: "⊥", top: "ᵀ", circ: "∘",
    log: "log", ln: "ln", exp: "exp", min: "min", max: "max", arg: "arg", sup: "sup",
    inf: "inf", lim: "lim", det: "det", tr: "tr", cos: "cos", sin: "sin", tanh: "tanh",
    bmod: "mod", ell: "ℓ", star: "⋆", ast: "∗", neg: "¬", land: "∧", lor: "∨",
    lfloor: "⌊", rfloor: "⌋", lceil: "⌈", rceil: "⌉", "{": "{", "}": "}", "|": "‖",
    ",": " ", ";": " ", ":": " ", "!": "", " ": " ", quad: " ", qquad: " ",
  };
  const BLACKBOARD = { R: "ℝ", E: "𝔼", N: "ℕ", Z: "ℤ", P: "ℙ", I: "𝕀", H: "ℍ" };
  const ACCENTS = { hat: "\u0302", bar: "\u0304", tilde: "\u0303", dot: "\u0307", vec: "\u20d7" };
  // commands that only style or size what follows: their argument is kept as it is
  const STYLE_NAMES = "boldsymbol|mathbf|mathrm|mathit|mathsf|mathcal|text|textbf|textit|operatorname\\*?|mathop";
  const STYLE = new RegExp("\\\\(?:" + STYLE_NAMES + ")\\s*\\{([^{}]*)\\}", "g");
  // the same without braces: \boldsymbol x, \mathbf Q, \boldsymbol\theta
  const STYLE_ONE = new RegExp("\\\\(?:" + STYLE_NAMES + ")(?:\\s+|(?=\\\\))(\\\\[A-Za-z]+|[A-Za-z0-9])", "g");
  // relations and operators: spaced, as MathJax spaces them
  const SPACED = new Set(["le", "leq", "ge", "geq", "ne", "neq", "approx", "sim", "equiv", "propto",
    "in", "notin", "subset", "subseteq", "cup", "cap", "setminus", "to", "rightarrow", "leftarrow",
    "Rightarrow", "mapsto", "cdot", "times", "pm", "mp", "mid", "perp", "circ", "land", "lor"]);
  const WORDS = /^[a-z]+$/;
  const SIZE = /\\(?:left|right|big|Big|bigg|Bigg|bigl|bigr|Bigl|Bigr|displaystyle|limits|nolimits)(?![A-Za-z])/g;

  // A plain-text reading of TeX: known commands become Unicode, braces go.
  // Unknown commands stay as they are (the callers decide what to do then).
  function readTex(tex) {
    let s = tex;
    s = s.replace(/\\begin\{(?:aligned|align\*?|split|gathered)\}|\\end\{(?:aligned|align\*?|split|gathered)\}|&|\\\\/g, " ");
    s = s.replace(SIZE, "");
    s = s.replace(/\\\{/g, "\u0001").replace(/\\\}/g, "\u0002");   // set braces, kept
    for (let k = 0; k < 3; k++) {       // nested \boldsymbol{\mathrm{x}} and the like
      s = s.replace(/\\mathbb\s*\{?([A-Z])\}?/g, (m, c) => BLACKBOARD[c] || c);
      s = s.replace(STYLE, "$1").replace(STYLE_ONE, "$1");
      s = s.replace(/\\(hat|bar|tilde|dot|vec|overline|widehat)(?![A-Za-z])\s*(?:\{([^{}]*)\}|([A-Za-z]))/g,
        (m, a, x, y) => (x !== undefined ? x : y) + (ACCENTS[a] || "\u0304"));
      s = s.replace(/\\sqrt\s*\{([^{}]*)\}/g, (m, x) => "√" + (x.length > 1 ? "(" + x + ")" : x));
      s = s.replace(/\\[td]?frac\s*(?:\{([^{}]*)\}|(\d))\s*(?:\{([^{}]*)\}|(\d))/g, (m, a1, a2, b1, b2) => {
        const a = a1 !== undefined ? a1 : a2, b = b1 !== undefined ? b1 : b2;
        return (a.length > 1 ? "(" + a + ")" : a) + "/" + (b.length > 1 ? "(" + b + ")" : b);
      });
    }
    s = s.replace(/\^\s*\\top\b/g, "ᵀ").replace(/\^\s*\{\\top\}/g, "ᵀ");
    s = s.replace(/\\([A-Za-z]+)|\\([|,;:! ])/g, (m, name, sym) => {
      if (sym !== undefined) return SYMBOLS[sym];
      if (name in GREEK) return GREEK[name];
      if (!(name in SYMBOLS)) return m;  // unknown: left, so the formula reads [formula]
      const t = SYMBOLS[name];
      return SPACED.has(name) ? " " + t + " " : WORDS.test(t) ? t + " " : t;
    });
    s = s.replace(/[{}]/g, "").replace(/\u0001/g, "{").replace(/\u0002/g, "}");
    s = s.replace(/\s+/g, " ").replace(/\s([)\],.;:ᵀ_^])/g, "$1").replace(/([a-z]) \(/g, "$1(").trim();
    return s;
  }

  function mathText(tex) {
    const s = readTex(tex.trim().replace(/^\\\(|\\\)$|^\\\[|\\\]$|^\$\$?|\$\$?$/g, "").trim());
    if (!s || s.includes("\\") || s.length > LONGEST_FORMULA) return "[formula]";
    return s;
  }

  // The titles of search results come from the search index, where a formula
  // in a heading is its TeX ("Choosing \gamma and C"): they get the same
  // reading. A theorem's or exercise's name is indexed in parentheses, without
  // its number ("Kernels > (No insensitive zone)"): the parentheses go.
  const NAMED = /(^|>\s*)\((.*)\)\s*$/;
  function fixResultTitles(list) {
    list.querySelectorAll("li > a").forEach((a) => {
      const text = a.textContent;
      if (a.dataset.mlbookTitle || !(/\\[A-Za-z]/.test(text) || NAMED.test(text))) return;
      a.dataset.mlbookTitle = "1";
      const plain = text.trim().replace(NAMED, "$1$2");
      a.textContent = /\\[A-Za-z]/.test(plain) ? readTex(plain) : plain;
    });
  }

  function htmlToText(htmlString, anchor) {
    const doc = new DOMParser().parseFromString(htmlString, "text/html");
    const root = doc.querySelector(EXCERPT_ROOT);
    if (!root) return "";
    root.querySelectorAll(EXCERPT_DROP).forEach((el) => el.remove());
    root.querySelectorAll(EXCERPT_MATH).forEach((el) => {
      el.replaceWith(doc.createTextNode(" " + mathText(el.textContent) + " "));
    });
    if (anchor) {
      const part = doc.getElementById(anchor.replace(/^#/, ""));
      if (part && root.contains(part)) return part.textContent.replace(/\s+/g, " ").trim();
    }
    return root.textContent.replace(/\s+/g, " ").trim();
  }

  // As Sphinx's own, but without a leading "..." when the excerpt starts at the
  // top of the text (the search term may occur only in the title).
  function makeSearchSummary(htmlText, keywords, anchor) {
    const text = htmlToText(htmlText, anchor);
    if (text === "") return null;
    const lower = text.toLowerCase();
    const found = [...keywords].map((k) => lower.indexOf(k.toLowerCase())).filter((i) => i > -1);
    const start = found.length ? Math.max(found[found.length - 1] - 120, 0) : 0;
    const summary = document.createElement("p");
    summary.classList.add("context");
    summary.textContent = (start > 0 ? "..." : "") + text.substr(start, 240).trim() +
      (start + 240 < text.length ? "..." : "");
    return summary;
  }

  function install() {
    // searchtools.js declares `const Search` only on the search page
    if (typeof Search === "undefined" || !Search.makeSearchSummary) return;
    Search.htmlToText = htmlToText;
    Search.makeSearchSummary = makeSearchSummary;
    const results = document.getElementById("search-results");
    if (results) {
      new MutationObserver(() => fixResultTitles(results))
        .observe(results, { childList: true, subtree: true });
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", install);
  } else {
    install();
  }
  window.mlbookMathText = mathText;   // exposed so that a test can read formulas with it
  window.mlbookReadTex = readTex;
})();
