//! Lights Out's answers that depend on the size only: `lights count`, `kernel`, `table`.

use std::path::PathBuf;

use damier::board::{Board, Size};
use damier::lights;
use damier::lights::sizes::{SizeCount, SquareRow};

use crate::util::output::{Report, outln};

impl Report for SizeCount {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "{}x{}: nullity {}; {} way{} from all-on to all-off; {} of the starts are winnable",
            self.width,
            self.height,
            self.nullity,
            self.solutions,
            if self.nullity == 0 { "" } else { "s" },
            self.winnable_fraction
        )?;
        Ok(())
    }
}

/// The square table (its JSON: the list of rows).
impl Report for Vec<SquareRow> {
    fn print_text(&self) -> anyhow::Result<()> {
        for r in self {
            outln!("L = {:>3}  {}", r.size, r.solutions)?;
        }
        Ok(())
    }
}

/// What `lights kernel` prints: a basis of the kernel of a size, as rows of 0/1, or the files
/// it was written to.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Kernel {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// The nullity (basis vectors).
    pub nullity: usize,
    /// The basis, each vector as rows of 0/1 (when not written to files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basis: Option<Vec<Vec<String>>>,
    /// The files the basis was written to (`--out`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<PathBuf>>,
    /// The folder of those files (in the text, which names it even when no file was written).
    #[serde(skip)]
    pub folder: Option<PathBuf>,
}

impl Kernel {
    /// `basis`, a basis of the kernel of `size`, printed as rows of 0/1.
    pub fn listed(size: Size, basis: &[Board]) -> Kernel {
        Kernel {
            width: size.width(),
            height: size.height(),
            nullity: basis.len(),
            basis: Some(basis.iter().map(|b| b.to_rows('1', '0')).collect()),
            files: None,
            folder: None,
        }
    }

    /// A basis of `nullity` vectors written to `files` in `folder`.
    pub fn written(size: Size, nullity: usize, folder: PathBuf, files: Vec<PathBuf>) -> Kernel {
        Kernel {
            width: size.width(),
            height: size.height(),
            nullity,
            basis: None,
            files: Some(files),
            folder: Some(folder),
        }
    }
}

impl Report for Kernel {
    fn print_text(&self) -> anyhow::Result<()> {
        let (w, h, k) = (self.width, self.height, self.nullity);
        outln!("{w}x{h}: nullity {k} ({} neutral configurations)", lights::power_of_two_decimal(k as u64))?;
        if let (Some(dir), Some(files)) = (&self.folder, &self.files) {
            outln!("basis written to {} ({} files kernel-{w}x{h}-K.pbm)", dir.display(), files.len())?;
        }
        for (i, v) in self.basis.iter().flatten().enumerate() {
            outln!("basis vector {}:", i + 1)?;
            for r in v {
                outln!("{r}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_kernel_shows_each_vector_as_rows() {
        let size = Size::new(5, 5).unwrap();
        let basis = lights::sizes::neutral_basis(size, &damier::control::Control::new()).unwrap();
        let kernel = Kernel::listed(size, &basis);
        assert_eq!((kernel.width, kernel.height, kernel.nullity), (5, 5, 2));
        assert_eq!(kernel.basis.unwrap()[0], basis[0].to_rows('1', '0'));
    }
}
