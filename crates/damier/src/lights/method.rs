//! The engines that solve a Lights Out system, by name.

/// Which engine solves the system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Method {
    /// Elimination on the `N x N` press matrix (small boards).
    Dense,
    /// Light chasing to a `W x W` system, solved by elimination.
    Chase,
    /// Light chasing to a `W x W` system, solved with polynomials over GF(2).
    #[default]
    Poly,
}
