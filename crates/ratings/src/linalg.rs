//! Small dense linear algebra: the solves the methods need (Newton steps, covariances,
//! stationary distributions). Matrices are row-major `Vec<f64>` of side `n`.

/// Solves `a · x = b` by Gaussian elimination with partial pivoting; `None` when singular.
pub fn solve(mut a: Vec<f64>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&r, &s| a[r * n + col].abs().total_cmp(&a[s * n + col].abs()))?;
        if a[pivot * n + col].abs() < 1e-300 {
            return None;
        }
        if pivot != col {
            for k in 0..n {
                a.swap(col * n + k, pivot * n + k);
            }
            b.swap(col, pivot);
        }
        let p = a[col * n + col];
        for r in col + 1..n {
            let f = a[r * n + col] / p;
            if f != 0.0 {
                for k in col..n {
                    a[r * n + k] -= f * a[col * n + k];
                }
                b[r] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let mut s = b[r];
        for k in r + 1..n {
            s -= a[r * n + k] * x[k];
        }
        x[r] = s / a[r * n + r];
    }
    Some(x)
}

/// Returns the stationary distribution π = π·T of the row-stochastic matrix `t` (side `m`),
/// solved directly: (Tᵀ − I)πᵀ = 0 with its last equation replaced by Σπ = 1; `None` when the
/// chain has no single stationary distribution.
pub fn stationary(t: &[f64], m: usize) -> Option<Vec<f64>> {
    let mut a = vec![0.0; m * m];
    for r in 0..m {
        for c in 0..m {
            a[r * m + c] = t[c * m + r] - if r == c { 1.0 } else { 0.0 };
        }
    }
    for c in 0..m {
        a[(m - 1) * m + c] = 1.0;
    }
    let mut b = vec![0.0; m];
    b[m - 1] = 1.0;
    solve(a, b)
}

/// Inverts a symmetric positive definite matrix by Cholesky factorisation; `None` when it is
/// not positive definite.
pub fn inverse_spd(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let l = cholesky(a, n)?;
    let mut inv = vec![0.0; n * n];
    let mut e = vec![0.0; n];
    for c in 0..n {
        e.iter_mut().for_each(|x| *x = 0.0);
        e[c] = 1.0;
        let x = cholesky_solve(&l, n, &e);
        for r in 0..n {
            inv[r * n + c] = x[r];
        }
    }
    Some(inv)
}

/// Returns the lower factor L of `a = L·Lᵀ`; `None` when `a` is not positive definite.
pub fn cholesky(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    Some(l)
}

/// Solves `L·Lᵀ·x = b` given the Cholesky factor `L`.
pub fn cholesky_solve(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i * n + k] * y[k];
        }
        y[i] = s / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= l[k * n + i] * x[k];
        }
        x[i] = s / l[i * n + i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts_a_small_system() {
        let a = vec![4.0, 2.0, 2.0, 3.0];
        let x = solve(a.clone(), vec![2.0, 1.0]).unwrap_or_default();
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12);
        let inv = inverse_spd(&a, 2).unwrap_or_default();
        // inverse of [[4,2],[2,3]] = [[3,-2],[-2,4]]/8
        let want = [0.375, -0.25, -0.25, 0.5];
        assert!(inv.iter().zip(want).all(|(x, y)| (x - y).abs() < 1e-12));
        assert!(solve(vec![1.0, 2.0, 2.0, 4.0], vec![1.0, 1.0]).is_none());
    }
}
