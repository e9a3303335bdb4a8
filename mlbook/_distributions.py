"""The few distribution functions the hypothesis tests of the book need, in NumPy.

``mlbook`` has no SciPy at run time, so the tail probabilities and quantiles
of the binomial, Student's :math:`t`, :math:`\\chi^2`, :math:`F` and
studentized-range distributions are computed here from two special functions:

* the regularised incomplete beta function :math:`I_x(a, b)`, by its
  continued fraction (evaluated with the modified Lentz method), which gives
  the binomial, :math:`t` and :math:`F` tails;
* the regularised incomplete gamma functions :math:`P(a, x)` and
  :math:`Q(a, x) = 1 - P(a, x)`, by their power series (small :math:`x`) and
  continued fraction (large :math:`x`), which give the :math:`\\chi^2` tails.

Quantiles are found by bisection on the (monotone) distribution function,
to the last few bits of a float64. The studentized range with infinitely
many degrees of freedom, which the Nemenyi test needs, is a one-dimensional
integral of the normal distribution, computed by Gauss-Legendre quadrature.

The tests in ``tests/test_model_selection_hypothesis.py`` compare every function with
``scipy.stats`` on random arguments. See the chapter *Comparing learners*.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "betainc",
    "gammainc",
    "gammaincc",
    "norm_cdf",
    "binom_sf",
    "binom_cdf",
    "t_sf",
    "t_ppf",
    "chi2_sf",
    "chi2_ppf",
    "f_sf",
    "f_ppf",
    "studentized_range_cdf",
    "studentized_range_ppf",
]

_EPS = 1e-16
_TINY = 1e-300
_MAX_ITER = 10_000


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_ITER):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))          # even step
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))  # odd step
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            return h
    raise RuntimeError(f"incomplete beta continued fraction did not converge (a={a}, b={b}, x={x})")


def betainc(a: float, b: float, x: float) -> float:
    r"""Regularised incomplete beta function :math:`I_x(a, b)`, for :math:`a, b > 0`, :math:`0 \le x \le 1`.

    .. math::
        I_x(a, b) = \frac{1}{B(a, b)} \int_0^x t^{a-1} (1-t)^{b-1}\, dt.

    The continued fraction converges fast for :math:`x < (a+1)/(a+b+2)`;
    above that the symmetry :math:`I_x(a, b) = 1 - I_{1-x}(b, a)` is used
    (Press et al., *Numerical Recipes*, section 6.4).

    >>> round(betainc(2.0, 3.0, 0.4), 12)      # 1 - 0.6^4 - 4 * 0.4 * 0.6^3
    0.5248
    """
    if not (a > 0 and b > 0):
        raise ValueError(f"a and b must be > 0; got a={a}, b={b}")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be in [0, 1]; got {x}")
    if x == 0.0 or x == 1.0:
        return float(x)
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its power series (x < a + 1)."""
    ap, total = a, 1.0 / a
    term = total
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            return total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    raise RuntimeError(f"incomplete gamma series did not converge (a={a}, x={x})")


def _gamma_cf(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (x >= a + 1), modified Lentz."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h
    raise RuntimeError(f"incomplete gamma continued fraction did not converge (a={a}, x={x})")


def _check_gamma_args(a: float, x: float) -> None:
    if not a > 0:
        raise ValueError(f"a must be > 0; got {a}")
    if not x >= 0:
        raise ValueError(f"x must be >= 0; got {x}")


def gammainc(a: float, x: float) -> float:
    r"""Regularised lower incomplete gamma function :math:`P(a, x) = \gamma(a, x)/\Gamma(a)`.

    >>> round(gammainc(1.0, 2.0), 12) == round(1 - math.exp(-2.0), 12)
    True
    """
    _check_gamma_args(a, x)
    if x == 0.0:
        return 0.0
    if math.isinf(x):
        return 1.0
    return _gamma_series(a, x) if x < a + 1.0 else 1.0 - _gamma_cf(a, x)


def gammaincc(a: float, x: float) -> float:
    r"""Regularised upper incomplete gamma function :math:`Q(a, x) = 1 - P(a, x)`."""
    _check_gamma_args(a, x)
    if x == 0.0:
        return 1.0
    if math.isinf(x):
        return 0.0
    return 1.0 - _gamma_series(a, x) if x < a + 1.0 else _gamma_cf(a, x)


def norm_cdf(z):
    r"""Standard normal distribution function :math:`\Phi(z)`, elementwise (via ``math.erfc``)."""
    z = np.asarray(z, dtype=np.float64)
    # np.asarray: frompyfunc returns a Python float, not an array, for a 0-d input
    return 0.5 * np.asarray(np.frompyfunc(math.erfc, 1, 1)(-z / math.sqrt(2.0)), dtype=np.float64)


def binom_sf(k: int, n: int, p: float) -> float:
    r""":math:`P(X > k)` for :math:`X \sim \mathrm{Binomial}(n, p)`, :math:`= I_p(k+1, n-k)`.

    >>> round(binom_sf(1, 3, 0.5), 12)          # P(X >= 2) = 4/8
    0.5
    """
    if k < 0:
        return 1.0
    if k >= n:
        return 0.0
    if p == 0.0:
        return 0.0
    if p == 1.0:
        return 1.0
    return betainc(k + 1.0, float(n - k), p)


def binom_cdf(k: int, n: int, p: float) -> float:
    r""":math:`P(X \le k)` for :math:`X \sim \mathrm{Binomial}(n, p)`, :math:`= I_{1-p}(n-k, k+1)`."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p == 0.0:
        return 1.0
    if p == 1.0:
        return 0.0
    return betainc(float(n - k), k + 1.0, 1.0 - p)


def t_sf(t: float, df: float) -> float:
    r""":math:`P(T > t)` for Student's :math:`T` with ``df`` degrees of freedom.

    For :math:`t \ge 0`, :math:`P(T > t) = \tfrac12 I_{\nu/(\nu + t^2)}(\nu/2, 1/2)`;
    the other side follows from the symmetry of :math:`T`.

    >>> round(t_sf(0.0, 3.0), 12)
    0.5
    """
    if not df > 0:
        raise ValueError(f"df must be > 0; got {df}")
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def chi2_sf(x: float, df: float) -> float:
    r""":math:`P(X > x)` for :math:`X \sim \chi^2_\nu`, :math:`= Q(\nu/2, x/2)`."""
    if not df > 0:
        raise ValueError(f"df must be > 0; got {df}")
    if x <= 0:
        return 1.0
    return gammaincc(df / 2.0, x / 2.0)


def f_sf(x: float, dfn: float, dfd: float) -> float:
    r""":math:`P(X > x)` for :math:`X \sim F(d_1, d_2)`, :math:`= I_{d_2/(d_2 + d_1 x)}(d_2/2, d_1/2)`."""
    if not (dfn > 0 and dfd > 0):
        raise ValueError(f"dfn and dfd must be > 0; got {dfn}, {dfd}")
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    return betainc(dfd / 2.0, dfn / 2.0, dfd / (dfd + dfn * x))


def _bisect_sf(sf, q: float, lo: float, hi: float) -> float:
    """The x in [lo, hi] with sf(x) = q, for a decreasing sf; hi is doubled until it brackets."""
    while sf(hi) > q:
        lo, hi = hi, 2.0 * hi
        if hi > 1e300:
            raise RuntimeError("quantile search did not bracket the root")
    for _ in range(2000):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:           # no float strictly between: converged
            break
        if sf(mid) > q:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _check_probability(q: float, name: str = "q") -> None:
    if not 0.0 < q < 1.0:
        raise ValueError(f"{name} must be in (0, 1); got {q}")


def t_ppf(p: float, df: float) -> float:
    r"""Quantile of Student's :math:`t`: the :math:`t` with :math:`P(T \le t) = p`.

    >>> round(t_ppf(0.975, 9), 4)               # the two-sided 5 % critical value, 9 d.o.f.
    2.2622
    """
    _check_probability(p, "p")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_ppf(1.0 - p, df)
    return _bisect_sf(lambda t: t_sf(t, df), 1.0 - p, 0.0, 1.0)


def chi2_ppf(p: float, df: float) -> float:
    r"""Quantile of :math:`\chi^2_\nu`: the :math:`x` with :math:`P(X \le x) = p`.

    >>> round(chi2_ppf(0.95, 1), 4)             # McNemar's 5 % critical value
    3.8415
    """
    _check_probability(p, "p")
    return _bisect_sf(lambda x: chi2_sf(x, df), 1.0 - p, 0.0, max(1.0, float(df)))


def f_ppf(p: float, dfn: float, dfd: float) -> float:
    r"""Quantile of :math:`F(d_1, d_2)`: the :math:`x` with :math:`P(X \le x) = p`.

    >>> round(f_ppf(0.95, 2, 6), 3)             # Zhou's table 2.6: k = 3, N = 4
    5.143
    """
    _check_probability(p, "p")
    return _bisect_sf(lambda x: f_sf(x, dfn, dfd), 1.0 - p, 0.0, 1.0)


# Gauss-Legendre nodes for the studentized-range integral over z in [-10, 10].
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(200)
_Z = 10.0 * _GL_NODES
_PHI_Z = np.exp(-0.5 * _Z**2) / math.sqrt(2.0 * math.pi) * 10.0 * _GL_WEIGHTS   # density x weight
_CDF_Z = norm_cdf(_Z)


def studentized_range_cdf(q: float, k: int) -> float:
    r"""Distribution function of the range of ``k`` independent standard normals.

    This is the studentized range :math:`q_{k,\infty}` with infinitely many
    degrees of freedom (the standard deviation known):

    .. math::
        P(R \le q) = k \int_{-\infty}^{\infty} \varphi(z)\,\big(\Phi(z) - \Phi(z - q)\big)^{k-1}\, dz,

    since the range is at most :math:`q` exactly when, for the smallest of
    the :math:`k` values :math:`z` (any of :math:`k`, density :math:`\varphi(z)`),
    the other :math:`k - 1` fall in :math:`[z, z + q]`. The integral is computed
    by 200-point Gauss-Legendre quadrature on :math:`[-10, 10]` (the density
    outside is below :math:`10^{-22}`).

    >>> round(studentized_range_cdf(1.959964 * math.sqrt(2), 2), 6)   # |Z1 - Z2| <= 1.96 sqrt 2
    0.95
    """
    if not (isinstance(k, (int, np.integer)) and k >= 2):
        raise ValueError(f"k must be an integer >= 2; got {k!r}")
    if q <= 0:
        return 0.0
    # The smallest of k values is at z: the other k - 1 lie in [z, z + q],
    # each with probability Phi(z + q) - Phi(z).
    inner = np.clip(norm_cdf(_Z + q) - _CDF_Z, 0.0, 1.0)
    return float(min(1.0, k * np.sum(_PHI_Z * inner ** (k - 1))))


def studentized_range_ppf(p: float, k: int) -> float:
    r"""Quantile of the range of ``k`` standard normals: the :math:`q` with :math:`P(R \le q) = p`.

    The Nemenyi test's :math:`q_\alpha` is ``studentized_range_ppf(1 - alpha, k) / sqrt(2)``.

    >>> round(studentized_range_ppf(0.95, 3) / math.sqrt(2), 3)   # Zhou's table 2.7, Demsar's table 5
    2.344
    """
    _check_probability(p, "p")
    return _bisect_sf(lambda q: 1.0 - studentized_range_cdf(q, k), 1.0 - p, 0.0, 4.0)
