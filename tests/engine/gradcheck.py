"""Central finite differences, shared by every backward-pass test."""
import numpy as np


def numerical_grad(f, a, eps=1e-6):
    """dF/da entry by entry, perturbing ``a`` in place and restoring it."""
    g = np.zeros_like(a, dtype=np.float64)
    for i in np.ndindex(a.shape):
        old = a[i]
        a[i] = old + eps
        fp = f()
        a[i] = old - eps
        fm = f()
        a[i] = old
        g[i] = (fp - fm) / (2 * eps)
    return g


def assert_close_grad(analytic, numeric, rtol=1e-5, atol=1e-7):
    """Relative error against the larger of the two gradients, so tiny gradients do not pass by accident."""
    analytic = np.asarray(analytic)
    assert analytic.shape == numeric.shape
    scale = max(np.abs(numeric).max(), np.abs(analytic).max(), 1.0)
    err = np.abs(analytic - numeric).max()
    assert err <= atol + rtol * scale, f"max gradient error {err:.3g} (scale {scale:.3g})"
