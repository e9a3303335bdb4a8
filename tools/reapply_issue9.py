"""One-off, for merging issue 9: re-apply its small notebook edits after a conflict.

    .venv/bin/python tools/reapply_issue9.py && .venv/bin/python tools/md_fences.py

Issue 9 touched the chapters in small places only: a short title for every
exercise, comments in shown code that named MyST labels, the line of
logistic regression that started with "> 0$", two output tables whose
headers were not aligned. Where a merge conflict in a notebook is resolved by
taking the other side, this script makes the same edits again, wherever the
old text is still there (each is matched by its text, not by a cell number,
and applied at most once). Delete the script once the branch is merged.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (notebook, old text, new text), anywhere in a cell's source
REPLACE = [
    ("linear/logistic_regression", "correctly with a margin, $t_i\\, \\hat{\\boldsymbol{w}}_0^\\top \\hat{\\boldsymbol{x}}_i\n> 0$ for all $i$",
     "correctly with a margin,\n$t_i\\, \\hat{\\boldsymbol{w}}_0^\\top \\hat{\\boldsymbol{x}}_i > 0$ for all $i$"),
    ("foundations/supervised_learning", "equation (sl-logistic-margin).", "the last equation above."),
    ("svm/svr_kernel_methods", "kernel expansion (svr-eq-predict)", "kernel expansion of the text above"),
    ("trees/decision_trees", "the two forms of tree-eq-gini,", "the two forms of the Gini index,"),
    ("foundations/model_evaluation", "# count form (me-fbeta)", "# count form of F1"),
    ("foundations/model_evaluation", "# (me-fbeta-harmonic)", "# weighted harmonic mean"),
    ("foundations/model_evaluation", "# (me-fbeta)", "# F-beta from P and R"),
    ("foundations/model_evaluation", "the definitions of me-def-macro-micro,", "the macro and micro definitions,"),
    ("foundations/model_evaluation", "# (me-auc-pairs)", "# AUC as a fraction of pairs"),
    ("foundations/supervised_learning", "# (sl-threshold-risk)", "# the risk of the threshold rule"),
    ("foundations/supervised_learning", "(exercise sl-ex-nested)", "(an exercise below)"),
    ("foundations/supervised_learning", "# (sl-gaussian-logit)", "# the Gaussian logit"),
    ("linear/linear_regression", "# (linreg-normal)", "# the normal equations"),
    ("linear/linear_regression", "# (linreg-gauss-nll) on the grid", "# Gaussian, on the grid"),
    ("linear/linear_regression", "# (linreg-laplace-nll) on the grid", "# Laplacian, on the grid"),
    ("linear/linear_regression", "# (linreg-gauss-nll)\n", "# Gaussian noise\n"),
    ("linear/linear_regression", "# (linreg-laplace-nll)\n", "# Laplacian noise\n"),
    ("linear/regularisation", "# (regul-thm-ridge)", "# ridge closed form"),
    ("linear/regularisation", "the gradient of (regul-ridge) vanishes", "the gradient of the ridge objective vanishes"),
    ("svm/max_margin", "# the formula (svm-mm-distance)", "# the distance formula above"),
    ("trees/decision_trees", "# tree-thm-entropy-bounds and tree-thm-gain-nonneg, up to rounding",
     "# the bounds on entropy and gain >= 0, up to rounding"),
    # a chapter that main gained while issue 9 was open
    ("foundations/comparing_learners", "  (cl-norm-cost)", "  (the normalised cost)"),
    ("foundations/comparing_learners", "# (cl-tau-t) by hand;", "# the t statistic by hand;"),
    ("foundations/comparing_learners", "# Dietterich (cl-5x2)", "# Dietterich's 5x2 cv test"),
    ("foundations/comparing_learners", "# (cl-mcnemar)", "# McNemar's statistic"),
    ("foundations/comparing_learners", "# (cl-friedman-chi2)", "# Friedman's chi-square"),
    ("foundations/comparing_learners", "# (cl-friedman-f)", "# Friedman's F"),
    ("foundations/comparing_learners", "# (cl-bias-variance): the measured", "# bias-variance decomposition: the measured"),
    ("svm/svr_kernel_methods", 'print("x     ours      scikit-learn")',
     "print(f\"{'x':>4s}  {'ours':>9s}  {'scikit-learn':>12s}\")"),
    ("svm/svr_kernel_methods", 'print(f"{grid[k, 0]:.2f}  {ours_f[k]: .6f}  {theirs_f[k]: .6f}")',
     'print(f"{grid[k, 0]:4.2f}  {ours_f[k]:9.6f}  {theirs_f[k]:12.6f}")'),
]
# the stored nbval output of the AUC/AP/BEP table changes with its header
OUTPUT_REPLACE = [
    ("foundations/model_evaluation", 'print("score               AUC     AP     BEP")',
     "print(f\"{'score':18s}  {'AUC':>5s}  {'AP':>5s}  {'BEP':>5s}\")",
     "score               AUC     AP     BEP\n", "score                 AUC     AP    BEP\n"),
]
# an untitled exercise gets the title whose key words open its statement
TITLES = [
    ("multi-class between-class scatter", "Two-class between-class scatter"),
    ("Fit ordinary least squares to the two-class watermelon", "Least squares and Fisher's direction"),
    ("**Principal component analysis**", "PCA versus LDA"),
    ("Add to the iris data a fifth feature", "A redundant feature"),
    ("least-squares residuals sum to zero", "Residuals with an intercept"),
    ("have eigenvalues $0 < \\lambda_{\\min}", "Step size and convergence"),
    ("is minimised by the mean and", "Mean, median and outliers"),
    ("an exact copy of its first column", "A duplicated column"),
    ("Rerun gradient descent on the raw iris", "Too large a learning rate"),
    ("Show that $\\sigma'(z) = \\sigma(z)(1 - \\sigma(z))$", "The sigmoid's identities"),
    ("Show that the Newton step", "Newton as weighted least squares"),
    ("Take the separable two-point data", "Separable data with a penalty"),
    ("`LogisticRegression` is binary.", "One-vs-rest on iris"),
    ("Gradient descent with the step $\\eta = 1/L$", "Step sizes beyond 1/L"),
    ("is the ridge solution, and explain why", "Ridge as least squares"),
    ("solves the LASSO", "When the LASSO is zero"),
    ("Suppose the centred features are orthogonal", "Orthogonal features"),
    ("In the MAP reading of", "Priors and sample size"),
    ("find by brute force the best subset", "Best subset versus the LASSO"),
    ("write down an explicit feature map", "An explicit polynomial feature map"),
    ("What does the Gram matrix of the Gaussian kernel tend to", "A very narrow Gaussian kernel"),
    ("\\min(x, z)$ on $x, z\\ge0$ is a kernel", "The min kernel"),
    ("scikit-learn's Laplacian kernel", "The Laplacian kernel"),
    ("Repeat the cross-validation grid with the polynomial kernel", "A polynomial kernel grid"),
    ("Let $\\vw = (3, 4)$ and $b = -5$", "Distances and margins"),
    ("Solve the hard-margin SVM by hand for two points", "Two points by hand"),
    ("adding a new training point that lies strictly outside", "Points outside the margin"),
    ("optimal bias $b^*$ of the hard-margin SVM is unique", "The bias is unique"),
    ("multiply their first coordinate by 10", "A change of units"),
    ("sepal length and sepal width instead", "Four points on the margin"),
    ("Compute $L$ and $H$ when", "The clipping bounds"),
    ("along the line $\\alpha_1y_1 + \\alpha_2y_2 = \\zeta$", "The SMO step"),
    (":label: svm-soft-ex-derivative", "The SMO step"),
    ("Why can SMO not optimise a single multiplier", "Why two multipliers"),
    ("hard-margin dual solution $\\boldsymbol\\alpha^*$ has", "Large C on separable data"),
    ("Show that the margin width $2/\\lVert\\vw_C\\rVert$", "The margin shrinks with C"),
    ("Show that with $\\epsilon = 0$ SVR minimises", "No insensitive zone"),
    ("Derive the bias from a point with", "The bias of SVR"),
    ("Kernel ridge regression predicts", "The two limits of kernel ridge"),
    ("with the linear kernel, $\\boldsymbol{w} = \\mathbf{X}^\\top\\boldsymbol\\alpha$ tends to Fisher",
     "Kernel Fisher with a linear kernel"),
]
OPEN = re.compile(r"^(:{3,}\{exercise\})\s*$")


def title_exercises(src: str, where: str) -> tuple[str, list[str]]:
    lines = src.split("\n")
    missing = []
    for j, line in enumerate(lines):
        if not OPEN.match(line):
            continue
        body = " ".join(lines[j + 1:j + 8])
        title = next((t for key, t in TITLES if key in body), None)
        if title is None:
            missing.append(f"{where}: no title known for the exercise starting {body[:70]!r}")
            continue
        lines[j] = f"{line.rstrip()} {title}"
    return "\n".join(lines), missing


def main() -> int:
    missing = []
    for path in sorted((ROOT / "book").rglob("*.ipynb")):
        stem = path.relative_to(ROOT / "book").with_suffix("").as_posix()
        text = path.read_text(encoding="utf-8")
        nb = json.loads(text)
        for i, cell in enumerate(nb["cells"]):
            src = "".join(cell["source"])
            new = src
            for nbname, old, rep in REPLACE:
                if nbname == stem and old in new:
                    new = new.replace(old, rep)
            for nbname, old, rep, out_old, out_new in OUTPUT_REPLACE:
                if nbname == stem and old in new:
                    new = new.replace(old, rep)
                    for out in cell.get("outputs", []):
                        if "text" in out:
                            out["text"] = [t.replace(out_old, out_new) for t in out["text"]]
            if cell["cell_type"] == "markdown":
                new, miss = title_exercises(new, f"{stem}, cell {i}")
                missing += miss
            if new != src:
                cell["source"] = new.splitlines(keepends=True)
        out = json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        if out != text:
            path.write_text(out, encoding="utf-8")
            print(f"{path.relative_to(ROOT)}: issue 9 edits applied")
    for m in missing:
        print(m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
