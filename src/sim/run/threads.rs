//! How many worker threads a command accepts.

use anyhow::bail;

/// The most worker threads a run accepts: four per core, and at least 16. More threads than that
/// only add memory and scheduling (each holds its own agents), and tens of thousands of them can
/// exhaust the system; results never depend on the count.
pub(crate) fn max_threads() -> usize {
    (4 * cores()).max(16)
}

/// The machine's cores (1 if unknown).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Checks a thread count against [`max_threads`].
pub(crate) fn check_threads(threads: usize) -> anyhow::Result<()> {
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let max = max_threads();
    if threads > max {
        bail!(
            "--threads {threads}: at most {max} on this machine (4 per core for its {} core(s), \
             at least 16); results are the same for any thread count",
            cores()
        );
    }
    Ok(())
}
