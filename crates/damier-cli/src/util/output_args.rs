//! The output options of the experiments (`automaton sweep|scale|growth`, `factor sweep`): a
//! CSV table, a figure, JSON on stdout, checked before the run.

use super::OutputPath;

/// Output options shared by the experiments: a CSV table, a figure, JSON on stdout.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Write the table as CSV.
    #[arg(long, value_name = "F")]
    pub(crate) csv: Option<OutputPath>,
    /// Draw the figure (.svg or .png).
    #[arg(long, value_name = "F")]
    pub(crate) plot: Option<OutputPath>,
    /// Print JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

impl OutputArgs {
    /// Refuses, before any run, a figure format we cannot draw and a file in a missing folder.
    pub(crate) fn check(&self) -> anyhow::Result<()> {
        if let Some(p) = &self.plot {
            crate::util::chart::format_of(p)?;
        }
        for p in self.csv.iter().chain(&self.plot) {
            crate::util::output::check_folder(p)?;
        }
        Ok(())
    }
}
