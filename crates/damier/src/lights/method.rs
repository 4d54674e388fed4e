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

impl Method {
    /// Every engine, in the order of their names' list.
    pub const ALL: [Method; 3] = [Method::Dense, Method::Chase, Method::Poly];

    /// The engine's name: `dense`, `chase` or `poly`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Dense => "dense",
            Method::Chase => "chase",
            Method::Poly => "poly",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    /// `dense`, `chase` or `poly`, as [`Method::name`] writes them.
    fn from_str(s: &str) -> Result<Method, String> {
        crate::util::named(s, &Method::ALL, Method::name, "dense, chase or poly")
    }
}
